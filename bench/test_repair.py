"""S5's rounds that mend a suite, measured: of the suites S5 wrote in `bench/exec_agreement.py`'s
run files (held fixed), how many read data files they never wrote and are saved by the files round
(the model writes the files), then how many do not compile or load on the reference and how many
one repair round saves (the model is shown the errors and writes the suite again; the new one has
valid tests).

    .venv/bin/python bench/test_repair.py --runs bench-runs --langs python,javascript,java,cpp,go
                                          [--n 80] [--seed 11] [--model embedded]

The first check needs no model; the model is asked only for the suites that are broken.  Prints a
table per language: suites, broken before, saved by the round, problems with a valid suite before
and after.  Needs the Docker engine and the sandbox image.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from exec_agreement import draw

from sejury import Judge
from sejury.checks.suites import s5_suites
from sejury.execution.differential import recorded_function
from sejury.execution.evidence import check_on_reference
from sejury.execution.programs import programs
from sejury.schema import Strategy
from sejury.strategies import _repair_tests, _test_files
from sejury.strategies.base import Recorder


async def main(args: argparse.Namespace) -> None:
    judge = Judge(args.model, execute=True, cache=True)
    ctx = judge.context
    assert ctx.sandbox is not None
    rows = ["| language | suites | files asked for | saved by the files | broken on the reference (then) "
            "| saved by the rewrite | valid suite before | after |", "|" + " --- |" * 8]
    try:
        for language in args.langs.split(","):
            suites = s5_suites(Path(args.runs) / f"exec-{language}.jsonl")
            samples = [s for s in draw(Path(args.data), language, args.n, args.seed) if s.id in suites]
            broken = saved = before = after = asked = by_files = 0
            for sample in samples:
                reference = programs(sample.task.value, sample.language, sample.problem, sample.reference or "",
                                     sample.candidate, sample.metadata)[0]
                record = recorded_function(sample.problem)
                sandbox = ctx.for_sample(sample).sandbox  # the image the code's libraries need, as judging picks it
                assert sandbox is not None
                tests = suites[sample.id]
                ex, _, _ = await check_on_reference(sandbox, sample.language, reference, tests, record)
                ok = ex.status == "ran"
                before += ok
                if names := _test_files.missing_files(ex):  # the files round first, as S5 runs it
                    asked += 1
                    rec = Recorder(Strategy("generate_tests"))
                    files = await _test_files.ask_files(sample, ctx.for_sample(sample), rec, tests, names)
                    with_files = _test_files.with_files(tests, files, sample.language)
                    again = (await check_on_reference(sandbox, sample.language, reference, with_files, record))[0] \
                        if files else None
                    print(f"{language} {sample.id}: reads {', '.join(names)}; the model wrote "
                          f"{', '.join(files) or 'none'}; again: {again.valid if again else 0} valid of "
                          f"{again.generated if again else 0}", flush=True)
                    if again is not None and again.valid:
                        by_files += 1
                        ex, tests = again, with_files
                        ok = True
                errors = _repair_tests.suite_errors(ex)
                if errors is not None:
                    broken += 1
                    rec = Recorder(Strategy("generate_tests"))
                    new, n_new = await _repair_tests.rewrite(sample, ctx.for_sample(sample), rec, tests, errors)
                    again = (await check_on_reference(sandbox, sample.language, reference, new, record))[0] \
                        if n_new else None
                    if again is not None and again.valid:
                        saved += 1
                        ok = True
                    print(f"{language} {sample.id}: broken ({errors.splitlines()[0][:80]}); "
                          f"again: {again.valid if again else 0} valid of {n_new}", flush=True)
                after += ok
            n = len(samples)
            rows.append(f"| {language} | {n} | {asked} | {by_files} | {broken} | {saved} | "
                        f"{before} ({100 * before / max(1, n):.0f} %) | "
                        f"{after} ({100 * after / max(1, n):.0f} %) |")
    finally:
        await judge.aclose()
    print(f"\n## S5's repair round ({args.n} rows per set, seed {args.seed}, model {judge.llm.name})\n")
    print("\n".join(rows))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", default="bench-runs")
    ap.add_argument("--langs", default="python,javascript,java,cpp")
    ap.add_argument("--n", type=int, default=80)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--data", default=str(Path(__file__).resolve().parent.parent.parent / "shared" / "data"))
    ap.add_argument("--model", default="embedded")
    asyncio.run(main(ap.parse_args()))
