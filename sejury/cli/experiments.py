"""``sejury calibrate`` (choose the team on a few labels) and ``sejury evaluate`` (the papers'
tables from recorded scores): thin over ``sejury.calibrate`` and ``sejury.evaluate``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sejury.cli.common import err, fail, judge_options, out, read_samples
from sejury.cli.judging import new_progress, progress_bar
from sejury.config import JudgeConfig, load_team_file
from sejury.errors import InputError, SejuryError
from sejury.schema import parse_strategy


@judge_options(jury=False)
def calibrate(
    data: Annotated[Path | None, typer.Argument(help="A labelled dataset (JSONL); its labelled set is judged.")] = None,
    from_run: Annotated[Path | None, typer.Option(help="A `sejury batch` output: calibrate with no LLM call.")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="The team file to write.")] = Path("team.json"),
    report_path: Annotated[Path | None, typer.Option("--report", help="Markdown report (default: beside -o).")] = None,
    n: Annotated[int, typer.Option(help="Labelled samples.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the labelled draw (the paper's scripts use 12345).")] = 0,
    protocol: Annotated[str, typer.Option(help=(
        "default (every non-empty team), or paper (the published replication scripts: S1 in every team, "
        "scores mapped to the human scale)."))] = "default",
    round_selection: Annotated[bool, typer.Option(help="paper protocol: round team means during selection.")] = False,
    rest: Annotated[int | None, typer.Option(help="With DATA: judge only the first N other samples.")] = None,
    label: Annotated[str, typer.Option(help="The metadata field holding the human score.")] = "human_score",
    workdir: Annotated[Path, typer.Option(help="With DATA: where the run files go (resumable).")] = Path("calibration"),
    concurrency: Annotated[int, typer.Option(help="Samples in flight.")] = 4,
    also: Annotated[str | None, typer.Option(
        help="With DATA: opt-in jurors to try too, e.g. S5-nl,S5-code (CodeScore's other input formats).")] = None,
    *, config: JudgeConfig,
) -> None:
    """Choose the team on a few labelled samples (SE-Jury's calibration); write a team file and a report.

    With --execute, S5's tests really run and their pass ratio (S5-exec) is a candidate juror too."""
    from sejury import calibrate as cal

    if protocol not in ("default", "paper"):
        raise fail(InputError(f"{protocol!r}: use default or paper", field="protocol"))
    if (data is None) == (from_run is None):
        raise fail(InputError("give a dataset (DATA) or --from-run RUN, not both"))
    try:
        if from_run is not None:
            result = cal.calibrate(cal.read_run(from_run, label=label), n_labelled=n, seed=seed,
                                   protocol=protocol, round_selection=round_selection)  # type: ignore[arg-type]
        else:
            assert data is not None
            phases = {"labelled": "judging the labelled set with every juror",
                      "rest": "judging other samples with the chosen team"}
            with new_progress() as progress:
                result = cal.run(data, config=config, n=n, seed=seed, protocol=protocol,  # type: ignore[arg-type]
                                 round_selection=round_selection, rest=rest, label=label, workdir=workdir,
                                 concurrency=concurrency, also=[parse_strategy(x) for x in (also or "").split(",")
                                                                if x.strip()],
                                 progress=lambda phase, total: progress_bar(progress, total, phases[phase]))
    except SejuryError as exc:
        raise fail(exc) from None
    output.write_text(result.team_file().model_dump_json(indent=2) + "\n")
    text = cal.report(result)
    rp = report_path or output.with_suffix(".md")
    rp.write_text(text)
    out.print(text, markup=False, highlight=False, soft_wrap=True)
    err.print(f"wrote {output} and {rp}; use it with: sejury judge ... --team {output}")


def evaluate(
    run: Annotated[Path, typer.Argument(help=(
        "A `sejury batch` output over a labelled dataset; or comparisons (`sejury compare -o`): then how they "
        "were decided, the model's position bias and, with --pairs, pairwise accuracy."))],
    team: Annotated[Path | None, typer.Option(help="Calibrated team file (its labelled ones are excluded).")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="Report, CSV, plot folder.")] = Path("evaluation"),
    n: Annotated[int, typer.Option(help="Without --team: calibrate on N samples here.")] = 20,
    seed: Annotated[int, typer.Option()] = 0,
    seeds: Annotated[int, typer.Option(help="RQ3: seeds per N in the N study.")] = 5,
    ns: Annotated[str, typer.Option(help="RQ3: the N values.")] = "2,6,18,20,50",
    kappa_weights: Annotated[str | None, typer.Option(help="RQ2: linear or quadratic for ordinal scales.")] = None,
    label: Annotated[str | None, typer.Option(help=(
        "The metadata field holding the human score (default human_score); with comparisons, the field of "
        "--pairs' rows saying which attempt is right (default test_passed: true/false, or a number, higher "
        "is right)."))] = None,
    self_system: Annotated[list[str] | None, typer.Option(
        help="A generator (metadata.system) that is the judge's own model, for self-preference; repeatable "
             "(default: a generator whose name is part of the model's).")] = None,
    pairs: Annotated[Path | None, typer.Option(help=(
        "With comparisons: the samples `sejury compare` read; their --label says which attempt is right "
        "(pairwise accuracy)."))] = None,
) -> None:
    """Reproduce the paper's RQ1-RQ4 tables from recorded scores (no LLM call); write plots.  A run judged
    with `sejury batch --repeats K` also gets the judge's own variance (test-retest agreement).  Given
    `sejury compare`'s comparisons instead, report how the pairs were decided and the model's position
    bias (how often the order it saw them in changed its verdict), and with --pairs the accuracy."""
    from sejury import calibrate as cal
    from sejury import evaluate as ev_mod
    from sejury.evaluate_pairs import is_comparisons
    from sejury.evaluate_report import write_outputs

    if is_comparisons(run):
        if team or kappa_weights or self_system:
            raise fail(InputError(f"{run} holds comparisons: --team, --kappa-weights and --self-system are for "
                                  "run files"))
        report = _evaluate_pairs(run, pairs, label or "test_passed", output)
        out.print(report.read_text(encoding="utf-8"), markup=False, highlight=False, soft_wrap=True)
        err.print(f"wrote {report}, pairs.csv and pairs.json in {output}/", markup=False, highlight=False)
        return
    if pairs is not None:
        raise fail(InputError(f"{run} is not a file of comparisons (`sejury compare -o`): --pairs is for those",
                              field="pairs"))
    try:
        records = cal.read_run(run, label=label or "human_score", repeats=True)
        team_file = load_team_file(team) if team else None
        ev = ev_mod.evaluate(records, team=team_file, n_labelled=n, seed=seed, seeds=seeds,
                             ns=[int(x) for x in ns.split(",") if x.strip()], kappa_weights=kappa_weights,
                             self_systems=self_system or ())
    except (SejuryError, ValueError) as exc:
        raise fail(exc) from None
    report = write_outputs(ev, output)
    out.print(report.read_text(), markup=False, highlight=False, soft_wrap=True)
    err.print(f"wrote {report}, CSVs and plots in {output}/")


def _evaluate_pairs(comparisons: Path, pairs: Path | None, label: str, output: Path) -> Path:
    """``sejury evaluate`` on comparisons: the report's path."""
    from sejury.cli.ranking import grouped
    from sejury.evaluate_pairs import evaluate_pairs, labels, read_comparisons
    from sejury.evaluate_pairs_report import write_pairs_outputs

    try:
        read = read_comparisons(comparisons)
        known = None
        if pairs is not None:
            samples = read_samples(pairs)
            known = labels(grouped(samples, str(pairs)), samples, label, file=str(pairs))
        ev = evaluate_pairs(read, file=str(comparisons), labelled=known,
                            labels_file=str(pairs) if pairs is not None else None,
                            label_field=label if pairs is not None else None)
    except SejuryError as exc:
        raise fail(exc) from None
    return write_pairs_outputs(ev, output)
