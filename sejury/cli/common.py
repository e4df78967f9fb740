"""What the commands share: the consoles, error output, one set of judge options that every
command judging samples takes (``judge_options``), turned into a ``JudgeConfig``, and ``loading``,
around the imports that commands make when they run (the judge: LangGraph, LangChain, the model client)."""

from __future__ import annotations

import contextlib
import functools
import gc
import inspect
from collections.abc import Callable, Iterator
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


def _settings(**fields: Any) -> dict[str, inspect.Parameter]:
    """JudgeConfig fields as options, ``name=annotation`` or ``name=(annotation, *flags[, typer
    keywords])``; each option's help is its field's description (one home)."""
    out = {}
    for name, spec in fields.items():
        annotation, *rest = spec if isinstance(spec, tuple) else (spec,)
        decls = [x for x in rest if isinstance(x, str)]
        kw = next((x for x in rest if isinstance(x, dict)), {})
        out[name] = _opt(annotation, None, JudgeConfig.model_fields[name].description or "", *decls, **kw)
    return out


# how to reach the model (every command that calls it)
MODEL_OPTIONS = _settings(
    jury_models=(list[str] | None, "--jury-model"),
    model=(str | None, "--model", "-m"),
    base_url=str | None,
    api_key=(str | None, {"envvar": "SEJURY_API_KEY"}),
    cache=(bool | None, "--cache/--no-cache"),
    cache_path=Path | None,
    traces=(bool | None, "--traces/--no-traces"),
    trace_path=Path | None,
    llm_concurrency=int | None,
    max_tokens=int | None,
    temperature=float | None,
    prompt_cache_mb=int | None,
    embedded_runtime=str | None,
    parse_retries=int | None,
    model_path=Path | None,
    execute=(bool | None, "--execute/--no-execute"),
)
# how to judge (commands that judge with a given team)
JURY_OPTIONS = _settings(
    team=str | None, scale=str | None, merge=str | None, pass_mark=float | None, evidence_pass=float | None,
    sandbox_mode=str | None, execution_weight=float | None, mutation_check=int | None, mutation_rounds=int | None,
)


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


# Set by ``sejury.cli.main``, the ``sejury`` process's entry: the process ends with the command, so
# what ``loading`` loads lives until the exit (commands run in-process, as by the tests, leave it off).
FREEZE_LOADED = False


@contextlib.contextmanager
def loading() -> Iterator[None]:
    """Load the judge with Python's cyclic garbage collector paused: importing LangChain and LangGraph
    and building the graph allocate much and free next to nothing, so the collector's passes over the
    growing heap are wasted (~15 % of that time, ``bench/startup.py``).  It runs again after.

    In the ``sejury`` process (``FREEZE_LOADED``) the loaded heap is then frozen (``gc.freeze``): the
    modules, the graph and the model client stay until the exit, and unfrozen, every full collection
    of the run walked them again, 50-100 ms each, the first ones while the first model calls were
    being made ready (at 96 samples and 32 in flight they went out ~0.2 s later; ``bench/throughput.py``)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
        if FREEZE_LOADED:
            gc.freeze()
    finally:
        gc.enable()


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
