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


def _setting(name: str, annotation: Any, *decls: str, **kw: Any) -> inspect.Parameter:
    """A JudgeConfig field as an option: its help is the field's description (one home)."""
    return _opt(annotation, None, JudgeConfig.model_fields[name].description or "", *decls, **kw)


# how to reach the model (every command that calls it)
MODEL_OPTIONS: dict[str, inspect.Parameter] = {
    "jury_models": _setting("jury_models", list[str] | None, "--jury-model"),
    "model": _setting("model", str | None, "--model", "-m"),
    "base_url": _setting("base_url", str | None),
    "api_key": _setting("api_key", str | None, envvar="SEJURY_API_KEY"),
    "cache": _setting("cache", bool | None, "--cache/--no-cache"),
    "cache_path": _setting("cache_path", Path | None),
    "traces": _setting("traces", bool | None, "--traces/--no-traces"),
    "trace_path": _setting("trace_path", Path | None),
    "llm_concurrency": _setting("llm_concurrency", int | None),
    "max_tokens": _setting("max_tokens", int | None),
    "temperature": _setting("temperature", float | None),
    "prompt_cache_mb": _setting("prompt_cache_mb", int | None),
    "embedded_runtime": _setting("embedded_runtime", str | None),
    "parse_retries": _setting("parse_retries", int | None),
    "model_path": _setting("model_path", Path | None),
    "execute": _setting("execute", bool | None, "--execute/--no-execute"),
}
# how to judge (commands that judge with a given team)
JURY_OPTIONS: dict[str, inspect.Parameter] = {
    "team": _setting("team", str | None),
    "scale": _setting("scale", str | None),
    "merge": _setting("merge", str | None),
    "pass_mark": _setting("pass_mark", float | None),
    "evidence_pass": _setting("evidence_pass", float | None),
    "sandbox_mode": _setting("sandbox_mode", str | None),
    "execution_weight": _setting("execution_weight", float | None),
    "mutation_check": _setting("mutation_check", int | None),
    "mutation_rounds": _setting("mutation_rounds", int | None),
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
