"""Long-lived helper processes that read a sample's text where a runaway cannot reach the judge.

Some libraries the judge reads code with can be made, by a text written for it, to take all the
machine's memory: tree-sitter's error recovery on 50 kB of ``a<b<c`` in Java allocates ~10 GB and
overruns its own time limit threefold (100 kB took the VM's 24 GiB and the kernel killed the
process).  In the judge's own process, or a ``sejury serve`` worker, that is every judgment lost.
So such reading runs in a ``Worker``: a child process with an address-space limit (``RLIMIT_AS``)
it sets on itself before reading anything (and no core files), and a wall-clock limit the parent
enforces by killing it.  A request over either limit fails with ``WorkerFailed`` naming the limit;
the next request starts a fresh child.

Protocol (``serve`` runs the child's side): the child says ``{"ready": true}`` once its limits are
set, then answers one JSON object per line for each request line.  Replies travel on a descriptor
of their own: whatever a library prints to stdout goes to stderr (discarded), so it can never be
read as a reply.  Anything else on that descriptor (a line that is not one JSON object, a reply
cut short, a stall within a line) ends the child and fails the request.
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
import time
from collections.abc import Callable
from typing import Any

MIB = 1 << 20
START_SECONDS = 30.0  # a child's start (the interpreter and its imports), beside the request's own limit


class WorkerFailed(RuntimeError):
    """A request the worker could not answer within its limits (or at all).  ``deterministic``: the
    request itself took the child over its memory or made it crash (the same request would again);
    not so for a stall, a child that did not start, or a garbled reply."""

    def __init__(self, message: str, *, deterministic: bool) -> None:
        super().__init__(message)
        self.deterministic = deterministic


class Worker:
    """One child process ``python -m MODULE --memory BYTES``, one request at a time (thread-safe),
    started with the first request and again after one that killed it.  ``retries``: how many times
    a request is sent again to a fresh child when the one it was written to was already gone (a
    request that itself ends its child is never repeated)."""

    def __init__(self, module: str, *, memory: int, seconds: float, what: str,
                 env: dict[str, str] | None = None, retries: int = 0) -> None:
        self.module, self.memory, self.seconds, self.what = module, memory, seconds, what
        self._env, self._retries = env or {}, retries
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        atexit.register(self._stop)

    def _stop(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            self._proc = None
        self._buffer = b""

    def _line(self, deadline: float) -> bytes | None:
        """The child's next line (without its newline); b"" if it ended; None past ``deadline``."""
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b""
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _reply(self, deadline: float) -> dict[str, Any]:
        line = self._line(deadline)
        if line is None:
            raise WorkerFailed(f"{self.what} took over {self.seconds:g} s; stopped", deterministic=False)
        if not line:
            raise WorkerFailed(f"{self.what} ended its process: over its {self.memory // MIB} MiB of memory, "
                               "or a crash", deterministic=True)
        try:
            reply = json.loads(line)
        except ValueError:
            reply = None
        if not isinstance(reply, dict) or self._buffer:
            raise WorkerFailed(f"{self.what} answered out of protocol", deterministic=False)
        return reply

    def _start(self) -> None:
        self._proc = subprocess.Popen([sys.executable, "-m", self.module, "--memory", str(self.memory)],
                                      env={**os.environ, **self._env}, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._buffer = b""
        try:
            ready = self._reply(time.monotonic() + START_SECONDS)
        except WorkerFailed:
            ready = {}
        if ready != {"ready": True}:
            self._stop()
            raise WorkerFailed(f"{self.what}'s helper process did not start", deterministic=False)

    def _once(self, request: bytes) -> dict[str, Any] | None:
        """The reply; None if the child was gone before the request reached it."""
        if self._proc is None or self._proc.poll() is not None:
            self._stop()
            self._start()
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(request)
            self._proc.stdin.flush()
        except OSError:
            self._stop()
            return None
        try:
            return self._reply(time.monotonic() + self.seconds)
        except BaseException:  # over a limit, garbled, or interrupted: this child's state is unknown
            self._stop()
            raise

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """The worker's reply to ``request``; ``WorkerFailed`` when it died on it (over its memory,
        or a crash), took longer than ``seconds``, or answered out of protocol."""
        data = (json.dumps(request) + "\n").encode()
        with self._lock:
            for _attempt in range(1 + self._retries):
                reply = self._once(data)
                if reply is not None:
                    return reply
        raise WorkerFailed(f"{self.what}'s helper process ended before it read the request", deterministic=False)


def serve(handle: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """The child's side: limit this process's address space to ``--memory BYTES`` (argv) and its
    core files to none, move stdout to stderr (replies go on the original descriptor alone), say
    ready, then answer each request line with ``handle``'s reply (an exception's as
    ``{"error": ...}``)."""
    memory = int(sys.argv[sys.argv.index("--memory") + 1])
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def say(out: dict[str, Any]) -> None:
        replies.write(json.dumps(out) + "\n")
        replies.flush()

    say({"ready": True})
    for line in sys.stdin:
        try:
            out = handle(json.loads(line))
        except Exception as exc:  # a bad request or a reader's failure: the caller decides
            out = {"error": f"{type(exc).__name__}: {exc}"}
        say(out)
