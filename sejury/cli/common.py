"""What the commands share: the consoles, error output, and one set of judge options that every
command judging samples takes (``judge_options``), turned into a ``JudgeConfig``."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from sejury.config import JudgeConfig
from sejury.schema import Sample

out = Console()
err = Console(stderr=True)
F = TypeVar("F", bound=Callable[..., Any])


def error(message: str, console: Console = err) -> None:
    """One unwrapped line, so ``file:line: field`` stays greppable."""
    console.print(f"[red]error:[/red] {escape(message)}", soft_wrap=True)


def fail(exc: Exception, code: int = 2) -> typer.Exit:
    error(str(exc))
    return typer.Exit(code)


def _opt(annotation: Any, default: Any, help: str, *decls: str, **kw: Any) -> inspect.Parameter:
    return inspect.Parameter("_", inspect.Parameter.KEYWORD_ONLY, default=default,
                             annotation=Annotated[annotation, typer.Option(*decls, help=help, **kw)])


# how to reach the model (every command that calls it)
MODEL_OPTIONS: dict[str, inspect.Parameter] = {
    "jury_models": _opt(list[str] | None, None, (
        "Another model for a multi-model jury, NAME=MODEL or NAME=MODEL@URL (repeatable); a member "
        "S1@NAME is S1 asked of it (e.g. --jury-model second=qwen@http://127.0.0.1:8000/v1 --team S1,S1@second)."),
        "--jury-model"),
    "model": _opt(str | None, None, (
        "'embedded' (default: local Qwen2.5-Coder-1.5B), 'embedded-inprocess', 'provider:name' "
        "(e.g. openai:gpt-4o-mini), or a model name with --base-url."), "--model", "-m"),
    "base_url": _opt(str | None, None, "An OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1"),
    "api_key": _opt(str | None, None, "API key for --base-url or the provider.", envvar="SEJURY_API_KEY"),
    "cache": _opt(bool | None, None, "Reuse cached strategy results (default: yes).", "--cache/--no-cache"),
    "cache_path": _opt(Path | None, None, "Cache file (default ~/.cache/sejury/results.sqlite)."),
    "traces": _opt(bool | None, None, "Store each judgment's full trace (default: yes; `sejury trace ID`).",
                   "--traces/--no-traces"),
    "trace_path": _opt(Path | None, None, "Trace store (default ~/.cache/sejury/traces.sqlite)."),
    "llm_concurrency": _opt(int | None, None, "Max LLM calls in flight (default 1 embedded, 8 otherwise)."),
    "max_tokens": _opt(int | None, None, "Reply token limit per call (default 384)."),
    "temperature": _opt(float | None, None, (
        "Sampling temperature (default 0: greedy). Above 0 the model samples, seeded: "
        "`sejury batch --repeats K` measures how much a verdict moves.")),
    "prompt_cache_mb": _opt(int | None, None, "The embedded server's RAM prompt cache in MiB (default 1024; 0: off)."),
    "embedded_runtime": _opt(str | None, None, (
        "The embedded model's server: auto (default: llama.cpp's llama-server when setup.sh built it), "
        "native, or python (llama-cpp-python's).")),
    "parse_retries": _opt(int | None, None, "Repair turns after a reply with no readable score (default 1)."),
    "model_path": _opt(Path | None, None, "Another GGUF file for the embedded backends."),
    "execute": _opt(bool | None, None, (
        "Really run S5's tests in the Docker sandbox: validated on the reference, then run on the candidate "
        "(default: no)."),
        "--execute/--no-execute"),
}
# how to judge (commands that judge with a given team)
JURY_OPTIONS: dict[str, inspect.Parameter] = {
    "team": _opt(str | None, None, (
        "Comma-separated strategies by name or paper name (e.g. S1,S2,S5 or direct,rethink; "
        "'sejury strategies' lists them), or a team file (.json). Default: the SE-Jury team, all that apply.")),
    "scale": _opt(str | None, None, "Map 0-100 to a target scale, e.g. 1-5 or 0-4."),
    "merge": _opt(str | None, None, (
        "How the members' scores merge: evidence_first (default: executed checks decide the side of the pass "
        "mark, a failing own test or a candidate that does not load keeps it below; opinion moves the score "
        "within that side) or mean (the papers' mean).")),
    "pass_mark": _opt(float | None, None, (
        "A score at or above it passes (default: the team file's calibrated mark, else 50).")),
    "evidence_pass": _opt(float | None, None, (
        "Evidence first: the executed checks' mean (0-100) at which a candidate reaches the pass mark "
        "(default 100: every check holds).")),
    "sandbox_mode": _opt(str | None, None, "warm (default: a pool of running containers) or oneshot (one per run)."),
    "execution_weight": _opt(float | None, None, "S5: share of the execution pass ratio in its score (default 0.75)."),
    "mutation_check": _opt(int | None, None, (
        "With --execute: also run S5's valid tests on N one-bug mutants of the reference and record their "
        "mutation score in the verdict; a weak suite gets second rounds of tests, counts less in the team's "
        "mean and is flagged for review (default 0: off).")),
    "mutation_rounds": _opt(int | None, None, (
        "With --mutation-check: while S5's suite kills under 75 % of the mutants, show the model a survivor "
        "and add the tests it writes that pass on the reference, up to N rounds (default 1; 0: none).")),
}


def judge_options(*, jury: bool = True) -> Callable[[F], F]:
    """Give a command the shared options; it receives them as ``config: JudgeConfig`` (built and
    checked before the command runs; a bad setting is a clear error naming the option).  Options
    default to unset, so ``SEJURY_<FIELD>`` environment variables fill what the command line
    leaves out, and JudgeConfig's defaults the rest."""
    shared = {**MODEL_OPTIONS, **(JURY_OPTIONS if jury else {})}

    def decorate(func: F) -> F:
        sig = inspect.signature(func, eval_str=True)
        own = [p for p in sig.parameters.values() if p.name != "config"]
        added = [p.replace(name=name) for name, p in shared.items()]

        @functools.wraps(func)
        def command(**kwargs: Any) -> Any:
            settings = {name: kwargs.pop(name) for name in shared}
            try:
                config = JudgeConfig.build(**{k: v for k, v in settings.items() if v is not None})
            except Exception as exc:
                raise fail(exc) from None
            return func(config=config, **kwargs)

        command.__signature__ = sig.replace(parameters=[*own, *added])  # type: ignore[attr-defined]
        command.__annotations__ = {p.name: p.annotation for p in [*own, *added]}
        return command  # type: ignore[return-value]

    return decorate


def read_samples(path: Path) -> list[Sample]:
    """The samples of a ``.jsonl`` file (every bad line reported, then exit 2 before anything
    runs) or of a ``.json`` file; an unreadable file raises ``SejuryError``."""
    from sejury.io import read_jsonl, read_sample_file

    if path.suffix != ".jsonl":
        return read_sample_file(path)
    samples, errors = read_jsonl(path)
    for e in errors:
        error(str(e))
    if errors:
        raise typer.Exit(2)
    return samples
