"""``sejury serve``: one judge over HTTP, by FastAPI + LangServe on uvicorn (the ``serve`` extra).

One process, one event loop, one ``Judge`` (model client, sandbox pool, cache) for the server's
lifetime; SIGTERM or Ctrl-C ends it cleanly: requests in flight get ``--shutdown-grace`` seconds,
then the judge is closed (sandbox containers removed) and the embedded model server stopped.
"""

from __future__ import annotations

import logging
import signal
import warnings
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer

from sejury.cli.common import err, fail, judge_options
from sejury.config import JudgeConfig, ServeSettings
from sejury.errors import SejuryError


def _help(name: str) -> str:
    return ServeSettings.model_fields[name].description or ""


@judge_options()
def serve(
    host: Annotated[str | None, typer.Option(help=_help("host"))] = None,
    port: Annotated[int | None, typer.Option(help=_help("port"))] = None,
    api_key_file: Annotated[Path | None, typer.Option(help=_help("api_key_file"))] = None,
    max_concurrent: Annotated[int | None, typer.Option(help=_help("max_concurrent"))] = None,
    max_body_bytes: Annotated[int | None, typer.Option(help=_help("max_body_bytes"))] = None,
    allow_caller_config: Annotated[bool | None, typer.Option(
        "--allow-caller-config/--no-allow-caller-config", help=_help("allow_caller_config"))] = None,
    shutdown_grace: Annotated[int | None, typer.Option(help=_help("shutdown_grace"))] = None,
    log_level: Annotated[str | None, typer.Option(help=_help("log_level"))] = None,
    *, config: JudgeConfig,
) -> None:
    """Serve the judge over HTTP: POST a sample to /judge/invoke (or /batch, /stream); /docs for the rest."""
    try:
        import uvicorn

        from sejury.serve import create_app
    except ImportError as exc:
        raise fail(SejuryError(f"the server needs the serve extra ({exc.name} is missing): "
                               "pip install 'sejury[serve]'")) from None
    options: dict[str, Any] = {"host": host, "port": port, "api_key_file": api_key_file,
                               "max_concurrent": max_concurrent, "max_body_bytes": max_body_bytes,
                               "allow_caller_config": allow_caller_config, "shutdown_grace": shutdown_grace,
                               "log_level": log_level}
    try:
        settings = ServeSettings.build(**{k: v for k, v in options.items() if v is not None})
    except SejuryError as exc:
        raise fail(exc) from None
    if not settings.loopback and settings.key is None:
        err.print(f"[bold red]WARNING:[/bold red] listening on {settings.host} with no API key: anyone who can "
                  "reach this port can run judgments (and spend your model's budget). Set SEJURY_SERVE_API_KEY "
                  "or --api-key-file.", soft_wrap=True)
    logging.basicConfig(level=settings.log_level.upper() if settings.log_level != "trace" else "DEBUG",
                        format="%(levelname)s:     %(name)s: %(message)s")
    # LangServe's playground reads /stream_log, which LangChain marks deprecated on every call
    warnings.filterwarnings("ignore", message="astream_log is deprecated")
    from sejury.api import Judge

    try:
        judge = Judge(config=config)  # the embedded model's server starts here, before we listen
    except SejuryError as exc:
        raise fail(exc) from None
    app = create_app(judge, settings)  # closes the judge at shutdown
    server = uvicorn.Server(uvicorn.Config(
        app, host=settings.host, port=settings.port, log_level=settings.log_level, lifespan="on",
        timeout_graceful_shutdown=settings.shutdown_grace, server_header=False))
    err.print(f"judge: {judge.llm.name}; execute: {config.execute}; at most {settings.max_concurrent} "
              f"judgments at once; API key: {'required' if settings.key else 'none'}", soft_wrap=True)
    # uvicorn shuts down gracefully on SIGTERM, then re-raises it; a stop we were asked for is exit 0
    # (and a normal exit, so atexit stops the embedded model's server)
    previous = signal.signal(signal.SIGTERM, _exit_cleanly)
    try:
        server.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
    if not server.started:  # could not bind, or the lifespan failed: uvicorn has said why
        raise typer.Exit(1)


def _exit_cleanly(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)
