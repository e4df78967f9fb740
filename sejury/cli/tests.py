"""``sejury tests check``: can a dataset's tests tell right from wrong?  (No LLM call; the sandbox.)"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer

from sejury.cli.common import err, fail, out, read_samples
from sejury.errors import SejuryError

tests_app = typer.Typer(no_args_is_help=True, help="Check the tests samples carry, in the Docker sandbox.")


@tests_app.command("check")
def tests_check(
    data: Annotated[Path, typer.Argument(help="Samples with tests and a reference (.jsonl, or .json).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Report, CSVs and plot folder.")] = Path("tests-check"),
    mutants: Annotated[int, typer.Option(help="Mutants of the reference run per sample (0: dummies only).")] = 10,
    min_score: Annotated[float, typer.Option(help="A suite below this mutation score is weak.")] = 0.75,
    sample: Annotated[int | None, typer.Option(help="Check a seeded random draw of N samples.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the mutant draw (and of --sample).")] = 0,
    concurrency: Annotated[int, typer.Option(help="Samples checked at once.")] = 2,
    suites_from: Annotated[Path | None, typer.Option(
        help="A run file (`sejury batch` over DATA with S5): check the tests S5 wrote for each sample instead "
             "of the sample's own, after dropping those that fail on the reference, as S5 does.")] = None,
) -> None:
    """Run each sample's tests on its reference (they must pass), on dummies of its function (it
    raises; it returns a zero value), on one-bug mutants of the reference and, for a patch, on the
    buggy program (they must fail); report the suites that cannot tell right from wrong.  With
    --suites-from, the suites are the ones S5 wrote (how strong is S5-exec's evidence?)."""
    from sejury.api import run_sync
    from sejury.checks.report import write_outputs
    from sejury.checks.suites import SuiteCheck, check_samples, s5_suites
    from sejury.sandbox.docker import DockerSandbox

    try:
        samples = read_samples(data)
    except SejuryError as exc:
        raise fail(exc) from None
    if suites_from is not None:
        try:
            written = s5_suites(suites_from)
        except SejuryError as exc:
            raise fail(exc) from None
        missing = [s.id for s in samples if s.id not in written]
        samples = [s.model_copy(update={"tests": written[s.id]}) for s in samples if s.id in written]
        err.print(f"{len(samples)} samples have S5's tests in {suites_from}"
                  + (f"; {len(missing)} have none there and are left out" if missing else ""))
    if sample is not None:
        samples = random.Random(seed).sample(samples, min(sample, len(samples)))
    if not any(s.tests for s in samples):
        raise fail(ValueError(f"{data}: no sample carries tests (the `tests` field); nothing to check"))

    def progress(c: SuiteCheck) -> None:
        score = "" if c.mutation_score is None else f", mutation score {c.mutation_score:.2f}"
        err.print(f"{c.sample_id}: {c.status}{score}", markup=False, highlight=False)

    try:
        sandbox = DockerSandbox(size=max(1, concurrency))
    except SejuryError as exc:
        raise fail(exc) from None
    try:
        checks = run_sync(check_samples(sandbox, samples, n_mutants=mutants, seed=seed, min_score=min_score,
                                        concurrency=concurrency, only_valid=suites_from is not None,
                                        progress=progress))
    finally:
        run_sync(sandbox.close())
    source = str(data) if suites_from is None else f"S5's tests in {suites_from}, on {data}"
    report = write_outputs(checks, output, source=source, n_mutants=mutants, min_score=min_score, seed=seed)
    out.print(report.read_text(), markup=False, highlight=False, soft_wrap=True)
    err.print(f"wrote {report}, tests-check.csv, tests-check-runs.csv and mutation-scores.png in {output}/")
