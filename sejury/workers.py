"""Long-lived helper processes that read a sample's text where a runaway cannot reach the judge.

Some libraries the judge reads code with can be made, by a text written for it, to take all the
machine's memory: tree-sitter's error recovery on 50 kB of ``a<b<c`` in Java allocates ~10 GB and
overruns its own time limit threefold (100 kB took the VM's 24 GiB and the kernel killed the
process).  In the judge's own process, or a ``sejury serve`` worker, that is every judgment lost.
So such reading runs in a ``Worker``: a child process with an address-space limit (``RLIMIT_AS``)
it sets on itself before reading anything, and a wall-clock limit the parent enforces by killing
it.  A request over either limit fails with ``WorkerFailed`` naming the limit; the next request
starts a fresh child.

Protocol: one JSON object per line each way (``serve`` runs the child's side).
"""

from __future__ import annotations

import atexit
import json
import os
import resource
import select
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

MIB = 1 << 20


class WorkerFailed(RuntimeError):
    """A request the worker could not answer within its limits (or at all)."""


class Worker:
    """One child process ``python -m MODULE --memory BYTES``, one request at a time (thread-safe),
    started with the first request and again after one that killed it."""

    def __init__(self, module: str, *, memory: int, seconds: float, what: str,
                 env: dict[str, str] | None = None, retries: int = 0) -> None:
        self.module, self.memory, self.seconds, self.what = module, memory, seconds, what
        self._env, self._retries = env or {}, retries
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None
        atexit.register(self._stop)

    def _start(self) -> subprocess.Popen[str]:
        return subprocess.Popen([sys.executable, "-m", self.module, "--memory", str(self.memory)],
                                env={**os.environ, **self._env}, text=True, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def _stop(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            self._proc = None

    def _once(self, request: str) -> str | None:
        """The reply line; "" if the child died on it; None if it ran past ``seconds`` (then killed)."""
        if self._proc is None or self._proc.poll() is not None:
            self._proc = self._start()
        assert self._proc.stdin is not None and self._proc.stdout is not None
        try:
            self._proc.stdin.write(request)
            self._proc.stdin.flush()
            # one request at a time, so nothing of this reply is buffered yet: the pipe tells
            ready, _, _ = select.select([self._proc.stdout], [], [], self.seconds)
            line = self._proc.stdout.readline() if ready else None
        except OSError:
            line = ""
        if not line:
            self._stop()
        return line

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """The worker's reply to ``request``; ``WorkerFailed`` when it died on it (over its memory,
        or a crash) or took longer than ``seconds``."""
        text = json.dumps(request) + "\n"
        with self._lock:
            for _attempt in range(1 + self._retries):
                line = self._once(text)
                if line is None:
                    raise WorkerFailed(f"{self.what} took over {self.seconds:g} s; stopped")
                if line:
                    reply: dict[str, Any] = json.loads(line)
                    return reply
        raise WorkerFailed(f"{self.what} ended its process: over its {self.memory // MIB} MiB of memory, "
                           "or a crash")


def serve(handle: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """The child's side: limit this process's address space to ``--memory BYTES`` (argv), then
    answer each request line with ``handle``'s reply (an exception's as ``{"error": ...}``)."""
    memory = int(sys.argv[sys.argv.index("--memory") + 1])
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    for line in sys.stdin:
        try:
            out = handle(json.loads(line))
        except Exception as exc:  # a bad request or a reader's failure: the caller decides
            out = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
