"""Do benchmark programs load?  For a random draw of each shared HumanEval set, the reference and
the candidate are assembled as S5 assembles them and loaded (compiled) in the real sandbox, with a
single trivially true test; the table gives the share that load, split by the benchmark's own
outcome.  A candidate the benchmark ran and passed must load here: every one that does not is
listed (our harness's failure, never the candidate's).  No model is involved.

    .venv/bin/python bench/loading_bench.py [--n 80] [--seed 11] [--data ../shared/data] [--langs cpp,java]

Needs the Docker engine and the sejury-sandbox image (scripts/setup-docker.sh).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from pathlib import Path

from sejury.execution.languages import Suite
from sejury.execution.reference import load_error_line, run_reference
from sejury.execution.runner import assemble_program, assemble_reference, run_suite
from sejury.sandbox.docker import DockerSandbox

SETS = {"python": "humaneval_python", "javascript": "humaneval_js", "java": "humaneval_java", "cpp": "humaneval_cpp",
        "go": "humaneval_go"}
TRIVIAL = {"python": "assert True", "javascript": "console.assert(true);", "cpp": "assert(true);",
           "java": 'if (1 + 1 != 2) throw new AssertionError("arithmetic");', "go": 'if 1+1 != 2 { t.Errorf("x") }'}


async def loads(sb: DockerSandbox, language: str, program: str) -> tuple[bool, str]:
    report = await run_suite(sb, language, program, Suite("", [TRIVIAL[language]]))
    return report.loaded, load_error_line(report.load_error)[:160]


async def reference_loads(sb: DockerSandbox, language: str, program: str) -> tuple[bool, bool, str]:
    """Whether the reference loads as S5 runs it (adapted to its signature when it must be), and
    whether it needed adapting."""
    report, adapted = await run_reference(sb, language, program, Suite("", [TRIVIAL[language]]))
    return report.loaded, bool(adapted), load_error_line(report.load_error)[:160]


async def main(n: int, seed: int, data: Path, concurrency: int, langs: list[str] | None = None) -> None:
    sb = DockerSandbox(size=concurrency)
    await sb.warm_up()
    gate = asyncio.Semaphore(concurrency)
    print(f"## Loading in the sandbox: {n} random rows per set (seed {seed})\n")
    print("| language | references load | of them adapted | candidates load | passed candidates load | "
          "failed candidates load | s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    misses: list[str] = []
    bad_refs: list[str] = []
    try:
        for language, name in SETS.items():
            if langs and language not in langs:
                continue
            rows = [json.loads(x) for x in (data / f"{name}.jsonl").read_text().splitlines() if x.strip()]
            pick = random.Random(seed).sample(rows, min(n, len(rows)))
            t0 = time.perf_counter()

            async def one(row: dict[str, object], language: str = language) -> tuple[bool, bool, str, bool, str]:
                async with gate:
                    ref = assemble_reference(language, str(row["problem"]), str(row["reference"]))
                    cand = assemble_program(language, str(row["problem"]), str(row["candidate"]))
                    r_ok, r_adapted, r_why = await reference_loads(sb, language, ref)
                    c_ok, why = await loads(sb, language, cand)
                    return r_ok, c_ok, why, r_adapted, r_why

            results = await asyncio.gather(*(one(r) for r in pick))
            passed = [(r, res) for r, res in zip(pick, results, strict=True) if r.get("test_passed")]
            failed = [(r, res) for r, res in zip(pick, results, strict=True) if not r.get("test_passed")]
            misses += [f"{language} {r['id']}: {res[2]}" for r, res in passed if not res[1]]
            bad_refs += [f"{language} {r['id']}: {res[4]}" for r, res in zip(pick, results, strict=True) if not res[0]]

            def share(xs: list[bool]) -> str:
                return f"{sum(xs)}/{len(xs)} ({100 * sum(xs) / len(xs):.0f} %)" if xs else "-"

            print(f"| {language} | {share([res[0] for res in results])} | {sum(res[3] for res in results)} | "
                  f"{share([res[1] for res in results])} | "
                  f"{share([res[1] for _, res in passed])} | {share([res[1] for _, res in failed])} | "
                  f"{time.perf_counter() - t0:.0f} |", flush=True)
    finally:
        await sb.close()
    print("\nCandidates the benchmark passed that do not load here:", "none" if not misses else "")
    for m in misses:
        print(f"- {m}")
    print("\nReferences that do not load, even adapted:", "none" if not bad_refs else "")
    for m in bad_refs:
        print(f"- {m}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=80)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "data")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--langs", default="", help="comma-separated languages (default: every set)")
    args = ap.parse_args()
    asyncio.run(main(args.n, args.seed, args.data, args.concurrency, [x for x in args.langs.split(",") if x]))
