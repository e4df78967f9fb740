"""Run the embedded model's OpenAI-compatible server as a child that exits when its last user does.

``python -m sejury.models._serve_child REGISTRY COMMAND...``: a daemon thread watches
``REGISTRY/users`` (one file per sejury process using this server, named by its pid) and ends the
server once none of them is alive, however they ended (SIGKILL too), so a killed run never leaves
a 1 GB model server behind.  The decision is taken under the registry's lock, so a process joining
at that moment either finds the server gone or keeps it alive.

COMMAND is ``ServerConfig.command``: ``PYTHON -m llama_cpp.server ...`` runs llama-cpp-python's
server in this process (with a leaner prompt cache); anything else (llama.cpp's ``llama-server``)
runs as this process's child, which the kernel kills if this process dies (``PR_SET_PDEATHSIG``),
and a SIGTERM here is passed on to it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import runpy
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

_child: subprocess.Popen[bytes] | None = None


def _exit(code: int) -> None:
    """Leave at once, taking the native server along.

    Called from the SIGTERM handler, which interrupts ``_run_native``'s ``_child.wait()`` in this
    same thread: that wait holds the Popen's lock, so ``poll``/``wait`` here would find it taken and
    block for good (the server then waited 10 s and SIGKILLed this process).  Plain ``kill`` and
    ``waitpid`` take no lock."""
    if _child is not None and _child.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(_child.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):  # already reaped by the other thread's wait
            os.waitpid(_child.pid, 0)
    os._exit(code)


def _watch(home: Path) -> None:
    from sejury.models._shared_server import _flock, live_users

    while True:
        time.sleep(0.5)
        if live_users(home / "users"):
            continue
        with _flock(home / "lock"):
            if not live_users(home / "users"):
                (home / "server.json").unlink(missing_ok=True)
                _exit(0)


def _lean_ram_cache() -> None:
    """llama-cpp-python's RAM prompt cache, keeping only what a cache hit needs.

    Each saved state carries a copy of the logits buffer (n_batch x vocabulary floats: 311 MB for
    Qwen2.5 at n_batch 512, freshly allocated at every save) that the cache's size limit does not
    count; only the last row is ever read (no logprobs are asked for).  Measured here, saving and
    loading that buffer cost 0.1-1.3 s a call, more than the prompt tokens the cache saved.  So a
    state keeps the last row only (``save_state`` copies just that row; the ~13 MB of KV for the
    tokens used stays whole), and the limit counts every byte an entry holds."""
    import llama_cpp

    save_state = llama_cpp.Llama.save_state

    def lean_save_state(self: Any) -> Any:
        full = self.scores
        last = max(0, min(self.n_tokens, full.shape[0]) - 1)
        self.scores = full[last:last + 1]  # what ``_scores`` (and so the state) copies: one row
        try:
            return save_state(self)
        finally:
            self.scores = full

    class LeanRAMCache(llama_cpp.LlamaRAMCache):  # type: ignore[misc,name-defined,unused-ignore]
        @property
        def cache_size(self) -> int:
            return sum(s.llama_state_size + s.scores.nbytes + s.input_ids.nbytes
                       for s in self.cache_state.values())


    llama_cpp.Llama.save_state = lean_save_state  # type: ignore[method-assign,unused-ignore]
    llama_cpp.LlamaRAMCache = LeanRAMCache  # type: ignore[attr-defined,unused-ignore]


def _die_with_parent() -> None:
    """In the child, before exec: the kernel sends it SIGKILL when this process dies."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _run_native(cmd: list[str]) -> None:
    global _child
    _child = subprocess.Popen(cmd, preexec_fn=_die_with_parent)  # stdout/stderr: this process's log
    signal.signal(signal.SIGTERM, lambda *_: _exit(0))
    signal.signal(signal.SIGINT, lambda *_: _exit(0))
    code = _child.wait()
    os._exit(code if code >= 0 else 128 - code)


def main() -> None:
    home = Path(sys.argv[1])
    cmd = sys.argv[2:]
    python_server = cmd[1:3] == ["-m", "llama_cpp.server"]
    if python_server:
        sys.argv = ["llama_cpp.server", *cmd[3:]]
        _lean_ram_cache()
    threading.Thread(target=_watch, args=(home,), daemon=True, name="users-watch").start()
    if python_server:
        runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
    else:
        _run_native(cmd)


if __name__ == "__main__":
    main()
