"""``sejury judge`` (one sample or sample files, printed) and ``sejury batch`` (a JSONL dataset into a
resumable JSONL of verdicts).  The judge (LangGraph, LangChain, the model client) is imported inside
the commands, so ``sejury --help`` loads none of it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from sejury.cli.common import err, error, fail, judge_options, loading, out
from sejury.cli.render import print_verdict
from sejury.config import JudgeConfig
from sejury.errors import InputError, SejuryError

if TYPE_CHECKING:
    from rich.progress import Progress

    from sejury.api import Judge
    from sejury.io import RunFile
    from sejury.schema import Sample, Verdict

DRY_RUN_HELP = ("Print, per sample and in total, the LLM calls and estimated tokens the run will make "
                "(cache hits, finished and duplicate samples taken off), and call nothing.")


@judge_options()
def judge(
    files: Annotated[list[Path] | None,
                     typer.Argument(help="JSON sample file(s) (an object or a list), or .jsonl.")] = None,
    task: Annotated[str | None, typer.Option(help="With --problem/--candidate instead of a file.")] = None,
    problem: Annotated[str | None, typer.Option()] = None,
    candidate: Annotated[str | None, typer.Option()] = None,
    reference: Annotated[str | None, typer.Option()] = None,
    language: Annotated[str, typer.Option()] = "python",
    sample_id: Annotated[str, typer.Option("--id")] = "cli",
    as_json: Annotated[bool, typer.Option("--json", help="Print verdicts as JSON lines.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help=DRY_RUN_HELP)] = False,
    *, config: JudgeConfig,
) -> None:
    """Judge one sample (flags) or the samples in JSON files, and print the verdicts."""
    from sejury.io import parse_sample, read_sample_file

    try:
        samples: list[Sample] = []
        for f in files or []:
            samples.extend(read_sample_file(f))
        if task or problem or candidate:
            samples.append(parse_sample({"id": sample_id, "task": task, "language": language,
                                         "problem": problem, "candidate": candidate,
                                         "reference": reference}, file="<command line>", line=None))
        if not samples:
            raise InputError("nothing to judge: give a sample file or --task/--problem/--candidate")
        if dry_run:
            from sejury.cli.dryrun import show_estimate

            show_estimate(config, samples, as_json=as_json)
            return
        with loading():
            from sejury.api import Judge

            j = Judge(config=config)
    except SejuryError as exc:
        raise fail(exc) from None
    failed = 0
    judged: dict[str, Verdict] = {}  # content hash -> verdict: a sample with the same content is judged once
    for s in samples:
        try:
            first = judged.get(s.content_hash())
            v = first.duplicate_for(s) if first is not None else j.judge(s)
            judged.setdefault(s.content_hash(), v)
        except SejuryError as exc:
            failed += 1
            error(f"sample {s.id}: {exc}")
            continue
        if as_json:
            sys.stdout.write(v.model_dump_json() + "\n")
            sys.stdout.flush()
        else:
            print_verdict(v)
            if config.traces and v.judgment_id:
                out.print(f"[dim]judgment {v.judgment_id}: `sejury trace {v.judgment_id}` shows its full trace[/dim]\n")
    j.close()
    if failed:
        raise typer.Exit(1)


@judge_options()
def batch(
    input: Annotated[Path, typer.Argument(help="Samples, one JSON object per line.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Verdicts, one per line (appended; resumable).")],
    concurrency: Annotated[int, typer.Option(help="Samples in flight.")] = 4,
    limit: Annotated[int | None, typer.Option(help="Judge only the first N samples of the input.")] = None,
    trace: Annotated[bool, typer.Option("--trace/--no-trace", help="Keep prompts and replies in the output.")] = True,
    skip_invalid: Annotated[bool, typer.Option(help="Judge the valid lines and report the invalid ones.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help=DRY_RUN_HELP)] = False,
    engine: Annotated[Literal["local", "ray"], typer.Option(
        help="local: this process; ray: Ray actors, one judge each (--concurrency is then per actor).")] = "local",
    address: Annotated[str | None, typer.Option(
        help="With --engine ray: an existing cluster (auto, host:port, ray://host:10001); "
             "default: a local Ray instance for this run.")] = None,
    actors: Annotated[int | None, typer.Option(
        min=1, help="With --engine ray: how many judges (default: one per CPU of the cluster).")] = None,
    repeats: Annotated[int, typer.Option(
        min=1, help="Judge each sample K times (repeat r samples with seed r; use --temperature > 0): "
                    "`sejury evaluate` then reports each juror's test-retest agreement.")] = 1,
    *, config: JudgeConfig,
) -> None:
    """Judge a JSONL dataset into a JSONL of verdicts.  Killed and re-run, it skips finished samples."""
    from sejury.io import RunFile, finished_ids, read_jsonl, run_key

    try:
        samples, errors = read_jsonl(input)
        for e in errors:
            error(str(e))
        if errors and not skip_invalid:
            raise typer.Exit(2)
        if limit is not None:
            samples = samples[:limit]
        if repeats > 1 and engine == "ray":
            raise InputError("--repeats is not available with --engine ray; use the local engine", field="repeats")
        # with repeats, a sample's K judgments go one after another: its prompts are read once
        jobs = [(s, r if repeats > 1 else None) for s in samples for r in range(repeats)]
        if dry_run:
            from sejury.cli.dryrun import show_estimate

            show_estimate(config, [s for s, _ in jobs], done=finished_ids(output), run_path=output,
                          repeats=[r for _, r in jobs])
            raise typer.Exit(0)
        run = RunFile(output)
    except SejuryError as exc:
        raise fail(exc) from None
    if run.repaired:
        err.print(f"[yellow]note:[/yellow] cut a torn last line from {output} (the previous run was killed mid-write)")
    if repeats > 1 and config.temperature == 0:
        err.print("[yellow]note:[/yellow] at --temperature 0 the model decodes greedily: the repeats can differ "
                  "only by the server's own nondeterminism")
    todo = [(s, r) for s, r in jobs if run_key(s.id, r) not in run.done]
    what = "judgments" if repeats > 1 else "samples"
    err.print(f"{len(jobs)} {what}, {len(jobs) - len(todo)} already in {output}, {len(todo)} to judge")
    if not todo:
        run.close()
        raise typer.Exit(1 if errors else 0)
    if engine == "ray":
        try:
            failures = ray_with_progress([s for s, _ in todo], run, config, address=address, actors=actors,
                                         concurrency=concurrency, trace=trace)
        except SejuryError as exc:
            run.close()
            raise fail(exc) from None
    else:
        try:
            with loading():
                from sejury.api import Judge

                j = Judge(config=config)
        except SejuryError as exc:
            run.close()
            raise fail(exc) from None
        failures = judge_with_progress(j, [s for s, _ in todo], run, concurrency=concurrency, trace=trace,
                                       repeats=[r for _, r in todo] if repeats > 1 else None)
        j.close()
    run.close()
    if failures or errors:
        err.print(f"[red]{failures} sample(s) failed, {len(errors)} invalid line(s)[/red]; "
                  "re-run to retry the failed ones")
        raise typer.Exit(1)


def progress_bar(progress: Progress, total: int, title: str = "judging",
                 ) -> Callable[[Sample, Verdict | BaseException], None]:
    """A bar on ``progress`` and the callback that advances it (failures are printed as they happen)."""
    counts = {"scored": 0, "unscored": 0, "failed": 0}
    bar = progress.add_task(title, total=total, status="")

    def advance(sample: Sample, result: Verdict | BaseException) -> None:
        if isinstance(result, BaseException):
            counts["failed"] += 1
            error(f"sample {sample.id}: {result}", progress.console)
        else:
            counts[result.status] += 1
        progress.update(bar, advance=1, status=f"{counts['scored']} scored, {counts['unscored']} unscored, "
                                               f"{counts['failed']} failed")

    return advance


def new_progress() -> Progress:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TextColumn("{task.fields[status]}"), console=err)


def judge_with_progress(j: Judge, todo: list[Sample], run: RunFile, *, concurrency: int, trace: bool,
                        repeats: list[int | None] | None = None) -> int:
    from sejury.api import run_sync

    with new_progress() as progress:
        advance = progress_bar(progress, len(todo))
        return run_sync(j.judge_into(todo, run, concurrency=concurrency, trace=trace, on_result=advance,
                                     repeats=repeats))


def ray_with_progress(todo: list[Sample], run: RunFile, config: JudgeConfig, *, address: str | None,
                      actors: int | None, concurrency: int, trace: bool) -> int:
    from sejury.distributed import judge_on_ray

    with new_progress() as progress:
        return judge_on_ray(todo, run, config, address=address, actors=actors, concurrency=concurrency,
                            trace=trace, on_result=progress_bar(progress, len(todo)), note=progress.console.print)
