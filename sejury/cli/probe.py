"""``sejury probe``: a judge configuration's robustness (equivalent variants, mutants, injections)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer

from sejury.cli.common import err, fail, judge_options, out, read_samples
from sejury.config import JudgeConfig
from sejury.errors import SejuryError


@judge_options()
def probe(
    data: Annotated[Path, typer.Argument(help="Code-generation samples (.jsonl, or .json).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Report, CSV and plot folder.")] = Path("probe"),
    sample: Annotated[int | None, typer.Option(help="Probe a seeded random draw of N samples.")] = None,
    mutants: Annotated[int, typer.Option(help="One-bug mutants judged per sample.")] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the draws.")] = 0,
    verify: Annotated[bool, typer.Option("--verify/--no-verify", help=(
        "Verify each variant on the sample's tests in the Docker sandbox (default: yes)."))] = True,
    *, config: JudgeConfig,
) -> None:
    """Judge each candidate and its variants with this configuration (--team, --model ...):
    equivalent ones (locals renamed, comments removed, re-indented: the score should not move),
    one-bug mutants (it should drop), and comments that address the judge (it must not move)."""
    from sejury.api import Judge, run_sync
    from sejury.checks.probe import Judged, ProbeLog, write_outputs
    from sejury.checks.probe import probe as run_probe
    from sejury.checks.variants import VERSION
    from sejury.models import ModelSettings, model_name
    from sejury.schema import Sample, TeamFile

    members = config.team.strategies if isinstance(config.team, TeamFile) else config.team
    team = "the default team" if members is None else ",".join(m.paper_name for m in members)
    try:
        samples = [s for s in read_samples(data) if s.task.value == "code_generation"]
        if not samples:
            raise SejuryError(f"{data}: no code-generation sample to probe")
        if sample is not None:
            samples = random.Random(seed).sample(samples, min(sample, len(samples)))
        label = f"team {team}, model {model_name(ModelSettings.of(config))}"
        log = ProbeLog(output, {"source": str(data), "config": label, "execute": config.execute,
                                "mutants": mutants, "seed": seed, "verify": verify, "variants": VERSION})
        if log.done:
            err.print(f"{sum(s.id in log.done for s in samples)} sample(s) already probed in {log.path}: "
                      "taken as they are", markup=False, highlight=False)
        judge = Judge(config=config)
    except SejuryError as exc:
        raise fail(exc) from None
    sandbox = None
    if verify and any(s.tests for s in samples):
        from sejury.sandbox.docker import DockerSandbox

        try:
            sandbox = judge.sandbox or DockerSandbox(size=1)
        except SejuryError as exc:
            judge.close()
            raise fail(SejuryError(f"{exc} (or run with --no-verify: variants are then reported unverified)")) \
                from None

    so_far: list[Judged] = [j for s in samples for j in log.done.get(s.id, [])]

    def progress(s: Sample, got: list[Judged]) -> None:
        log.add(got)
        so_far.extend(got)
        write_outputs(so_far, output, source=str(data), config=label)  # the report so far, after each sample
        err.print(f"{s.id}: {len(got) - 1} variants judged", markup=False, highlight=False)

    try:
        judged = run_sync(run_probe(judge, samples, sandbox, n_mutants=mutants, seed=seed, progress=progress,
                                    done=log.done))
    finally:
        if sandbox is not None and sandbox is not judge.sandbox:
            run_sync(sandbox.close())
        judge.close()
    report = write_outputs(judged, output, source=str(data), config=label)
    out.print(report.read_text(), markup=False, highlight=False, soft_wrap=True)
    err.print(f"wrote {report}, probe.csv and probe.png in {output}/")
