"""Run llama.cpp's OpenAI-compatible server as a child that exits when its last user does.

``python -m sejury.models._serve_child REGISTRY <llama_cpp.server arguments>``: a daemon thread
watches ``REGISTRY/users`` (one file per sejury process using this server, named by its pid) and
ends the server once none of them is alive, however they ended (SIGKILL too), so a killed run
never leaves a 1 GB model server behind.  The decision is taken under the registry's lock, so a
process joining at that moment either finds the server gone or keeps it alive.
"""

from __future__ import annotations

import os
import runpy
import sys
import threading
import time
from pathlib import Path
from typing import Any


def _watch(home: Path) -> None:
    from sejury.models.embedded import _flock, live_users

    while True:
        time.sleep(0.5)
        if live_users(home / "users"):
            continue
        with _flock(home / "lock"):
            if not live_users(home / "users"):
                (home / "server.json").unlink(missing_ok=True)
                os._exit(0)


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

    class LeanRAMCache(llama_cpp.LlamaRAMCache):  # type: ignore[misc,name-defined]
        @property
        def cache_size(self) -> int:
            return sum(s.llama_state_size + s.scores.nbytes + s.input_ids.nbytes
                       for s in self.cache_state.values())


    llama_cpp.Llama.save_state = lean_save_state  # type: ignore[method-assign]
    llama_cpp.LlamaRAMCache = LeanRAMCache  # type: ignore[attr-defined]


def main() -> None:
    home = Path(sys.argv[1])
    sys.argv = ["llama_cpp.server", *sys.argv[2:]]
    _lean_ram_cache()
    threading.Thread(target=_watch, args=(home,), daemon=True, name="users-watch").start()
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
