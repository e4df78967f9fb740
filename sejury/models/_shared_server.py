"""The embedded model's server, **one per machine** for a given model and settings
(``EmbeddedServer``): the first sejury process that needs it starts it, the others join it, and
the last to leave stops it.  The registry it keeps in ``run_dir()`` (``live_users``, ``_flock``) is
shared with the server's own watcher, ``_serve_child.py``.  What the server runs is
``embedded.ServerConfig``'s."""

from __future__ import annotations

import atexit
import fcntl
import http.client
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from sejury.errors import ModelSetupError
from sejury.paths import cache_dir, run_dir

if TYPE_CHECKING:
    from sejury.models.embedded import ServerConfig


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
    """The server on the loopback port answers ``GET /v1/models`` with 200 within 2 s.  Plain
    ``http.client``: an httpx call made a client and its SSL context each time, ~50 ms of every
    ``sejury judge`` that joins a running server (``bench/startup.py``)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2.0)
    try:
        conn.request("GET", "/v1/models")
        return conn.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()
