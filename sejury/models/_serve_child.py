"""Run llama.cpp's OpenAI-compatible server as a child that exits when its parent does.

``python -m sejury.models._serve_child PARENT_PID <llama_cpp.server arguments>``: a daemon thread
watches the parent and ends the server once the parent is gone, however it ended (SIGKILL too), so
a killed run never leaves a 1 GB model server behind.
"""

from __future__ import annotations

import os
import runpy
import sys
import threading
import time


def _watch(parent: int) -> None:
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:  # re-parented: the parent is gone
            os._exit(0)


def main() -> None:
    parent = int(sys.argv[1])
    sys.argv = ["llama_cpp.server", *sys.argv[2:]]
    threading.Thread(target=_watch, args=(parent,), daemon=True, name="parent-watch").start()
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
