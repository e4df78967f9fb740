"""Does sealing change anything for honest code?  The same rows of the shared HumanEval sets judged
by the jurors that call no model (Ex-fuzz by default: the problem's examples and mutations of them,
answered by the reference) on the sealed harness and on the harness before sealing (the tests in
the program's own process), side by side: how many verdicts differ, and each harness's agreement
with the benchmark's outcomes.

    .venv/bin/python bench/sealed_check.py [--langs python,javascript] [--n 80] [--seed 11] [--team Ex-fuzz]

Needs the Docker engine and the sandbox image; no model call.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from exec_agreement import draw

from sejury import Judge
from sejury.execution import languages
from sejury.execution.languages import javascript, python
from sejury.sandbox.docker import DockerSandbox
from sejury.stats import correlate

SEALABLE = {"python": python, "javascript": javascript}


def use(sealed: bool) -> None:
    for module in SEALABLE.values():
        make = module.harness if sealed else module.unsealed_harness
        languages.unregister(module.LANGUAGE.name)  # the registry refuses another object under a held name
        languages.register(dataclasses.replace(module.LANGUAGE, harness=make))


def agreement(xs: list[float | None], gold: list[float]) -> float:
    pairs = [(x, g) for x, g in zip(xs, gold, strict=True) if x is not None]
    return correlate([p for p, _ in pairs], [g for _, g in pairs]).mean if len(pairs) > 2 else math.nan


async def main(args: argparse.Namespace) -> None:
    sandbox = DockerSandbox(size=2)
    print("| language | juror | n | same verdict | scored (before / sealed) | avg(tau, rho) before | "
          "avg(tau, rho) sealed | seconds before / sealed |\n| --- | --- | --- | --- | --- | --- | --- | --- |")
    try:
        for language in args.langs.split(","):
            samples = draw(Path(args.data), language, args.n, args.seed)
            scores: dict[bool, list[float | None]] = {}
            seconds: dict[bool, float] = {}
            for sealed in (False, True):
                use(sealed)
                judge = Judge("embedded", team=args.team, execute=True, cache=False, traces=False, sandbox=sandbox)
                loop = asyncio.get_running_loop()
                start = loop.time()
                got = []
                for s in samples:
                    v = await judge.ajudge(s)
                    got.append(v.strategies[judge.config.team[0].value].score)  # type: ignore[index]
                seconds[sealed] = loop.time() - start
                scores[sealed] = got
            use(True)
            same = sum(a == b for a, b in zip(scores[False], scores[True], strict=True))
            gold = [1.0 if s.metadata.get("test_passed") else 0.0 for s in samples]

            scored = [sum(x is not None for x in scores[k]) for k in (False, True)]
            print(f"| {language} | {args.team} | {len(samples)} | {same} | {scored[0]} / {scored[1]} | "
                  f"{agreement(scores[False], gold):.3f} | {agreement(scores[True], gold):.3f} | "
                  f"{seconds[False]:.0f} / {seconds[True]:.0f} |", flush=True)
            for s, a, b in zip(samples, scores[False], scores[True], strict=True):
                if a != b:
                    print(f"  differs: {s.id}: before {a}, sealed {b}", file=sys.stderr)
    finally:
        await sandbox.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--langs", default="python,javascript")
    ap.add_argument("--n", type=int, default=80)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--team", default="Ex-fuzz")
    ap.add_argument("--data", default=str(Path(__file__).resolve().parent.parent.parent / "shared" / "data"))
    asyncio.run(main(ap.parse_args()))
