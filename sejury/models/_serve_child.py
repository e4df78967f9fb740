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


def main() -> None:
    home = Path(sys.argv[1])
    sys.argv = ["llama_cpp.server", *sys.argv[2:]]
    threading.Thread(target=_watch, args=(home,), daemon=True, name="users-watch").start()
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
