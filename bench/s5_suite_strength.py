"""Does a weak S5 suite mark S5-exec's mistakes?  For the rows `bench/exec_agreement.py` judged,
the tests S5 wrote (those valid on the reference) are checked like a benchmark's
(`sejury tests check --suites-from`: dummies and reference mutants), then S5-exec's error against
the benchmark's outcome (|score/100 - test_passed|) is compared between strong and weak suites.

    .venv/bin/python bench/s5_suite_strength.py [--runs bench-runs/exec19] [--n 20] [--seed 11]
                                                [--langs java,cpp,javascript] [--mutants 10]

No model: the S5 tests come from the run files; the Docker sandbox runs the checks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from exec_agreement import draw

from sejury.checks.suites import SuiteCheck, check_samples, s5_suites
from sejury.sandbox.docker import DockerSandbox
from sejury.stats import correlate


def _s5_exec(run: Path) -> dict[str, float]:
    out = {}
    for line in run.read_text().splitlines():
        v = json.loads(line)
        score = ((v.get("strategies") or {}).get("test_pass") or {}).get("score")
        if score is not None:
            out[v["sample_id"]] = float(score)
    return out


async def one_language(language: str, args: argparse.Namespace, sandbox: DockerSandbox) -> list[str]:
    run = Path(args.runs) / f"exec-{language}.jsonl"
    samples = draw(Path(args.data), language, args.n, args.seed)
    written, scores = s5_suites(run), _s5_exec(run)
    chosen = [s.model_copy(update={"tests": written[s.id]}) for s in samples if s.id in written and s.id in scores]
    checks: list[SuiteCheck] = await check_samples(sandbox, chosen, n_mutants=args.mutants, only_valid=True)
    gold = {s.id: 1.0 if s.metadata.get("test_passed") else 0.0 for s in samples}
    rows = []
    for label, group in (("strong suites", [c for c in checks if c.status == "tells right from wrong"]),
                         ("weak suites", [c for c in checks if c.status == "weak"])):
        errors = [abs(scores[c.sample_id] / 100 - gold[c.sample_id]) for c in group]
        ms = [m for c in group if (m := c.mutation_score) is not None]
        c = correlate([scores[x.sample_id] for x in group], [gold[x.sample_id] for x in group]) \
            if len(group) > 2 else None
        rows.append(f"| {language} | {label} | {len(group)} | "
                    f"{statistics.fmean(ms) if ms else float('nan'):.2f} | "
                    f"{statistics.fmean(errors) if errors else float('nan'):.2f} | "
                    f"{'-' if c is None else f'{c.mean:.2f}'} |")
    unchecked = [c for c in checks if c.status == "not checked"]
    rows.append(f"| {language} | not checked (S5-exec scored) | {len(unchecked)} | - | - | - |")
    return rows


async def main(args: argparse.Namespace) -> None:
    sandbox = DockerSandbox(size=2)
    rows: list[str] = []
    try:
        for language in args.langs.split(","):
            rows += await one_language(language, args, sandbox)
    finally:
        await sandbox.close()
    print(f"\n## S5's suites, checked, against S5-exec's error ({args.n} rows per set, seed {args.seed}, "
          f"{args.mutants} mutants)\n")
    print("| language | S5's suites | rows scored by S5-exec | mean mutation score | mean error of S5-exec "
          "| avg(tau, rho) |")
    print("| --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", default="bench-runs/exec19")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--langs", default="java,cpp,javascript")
    ap.add_argument("--mutants", type=int, default=10)
    ap.add_argument("--data", default=str(Path(__file__).resolve().parent.parent.parent / "shared" / "data"))
    asyncio.run(main(ap.parse_args()))
