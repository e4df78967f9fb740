"""Ex-fuzz alone on the shared HumanEval sets (no model call): the same draw as
`bench/exec_agreement.py`, each sample judged by the team Ex-fuzz with execution on, as
`bench/sealed_check.py` does, so a change to the mutation rules (``sejury/execution/fuzz.py``) is
measured by running this once on the code before it and once after, into two directories.
``--no-reference`` judges each sample with its reference removed: Ex-fuzz then runs the candidate
on the examples whose output the problem states, the stated values expected.

    .venv/bin/python bench/exfuzz_rerun.py --out bench-runs/exfuzz-after \\
        [--langs python:80,javascript:40,java:30,cpp:20] [--seed 11] [--data ../shared/data] [--no-reference]

Run a tree's own code with ``PYTHONPATH=<tree>`` (a worktree at the commit before the change for
the "before" run).  The result cache is off, so neither run reuses the other's results.  Writes
``<out>/exec-<language>.jsonl``, one line per sample in the verdict shape `exec_agreement.report`
reads (``{"sample_id", "strategies": {"example_fuzz": {"score", "detail"}}}``), the detail being the
juror's reason or its report lines (the inputs agreed on, the first mismatches), and prints, per
language, how many right and wrong candidates (the benchmark's ``test_passed``) score below 100.
Needs the Docker engine and the sandbox image.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from exec_agreement import draw

from sejury import Judge
from sejury.sandbox.docker import DockerSandbox
from sejury.strategies.example_fuzz import detail_lines

JUROR = "example_fuzz"


async def main(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sandbox = DockerSandbox(size=2)
    judge = Judge("embedded", team="Ex-fuzz", execute=True, cache=False, traces=False, sandbox=sandbox)
    print("| language | right below 100 | wrong below 100 | scored |\n| --- | --- | --- | --- |")
    try:
        for spec in args.langs.split(","):
            language, n = spec.split(":")
            samples = draw(Path(args.data), language, int(n), args.seed)
            counts = {True: [0, 0], False: [0, 0]}  # test_passed -> [below 100, scored]
            with (out / f"exec-{language}.jsonl").open("w") as fh:
                for s in samples:
                    if args.no_reference:
                        s = s.model_copy(update={"reference": None})
                    r = (await judge.ajudge(s)).strategies[JUROR]
                    detail = "\n".join(x for x in [r.detail or "", *detail_lines(r)] if x)
                    fh.write(json.dumps({"sample_id": s.id, "strategies": {
                        JUROR: {"score": r.score, "detail": detail}}}) + "\n")
                    fh.flush()
                    if r.score is not None:
                        c = counts[bool(s.metadata.get("test_passed"))]
                        c[0] += r.score < 100
                        c[1] += 1
            right, wrong = counts[True], counts[False]
            print(f"| {language} | {right[0]}/{right[1]} | {wrong[0]}/{wrong[1]} | "
                  f"{right[1] + wrong[1]}/{len(samples)} |", flush=True)
    finally:
        await judge.aclose()  # closes the sandbox too


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--langs", default="python:80,javascript:40,java:30,cpp:20")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--no-reference", action="store_true",
                    help="judge each sample as if it had no reference (Ex-fuzz then checks the problem's stated "
                         "outputs)")
    ap.add_argument("--data", default=str(Path(__file__).resolve().parent.parent.parent / "shared" / "data"))
    asyncio.run(main(ap.parse_args()))
