"""Reaping: containers we label are removed at exit, and at start-up when their owner is gone."""

from __future__ import annotations

import os
import socket
from typing import Any

from sejury.sandbox.docker.config import LABEL, OWNER_LABEL


def _owner_alive(owner: str) -> bool:
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return True  # another machine's: not ours to judge
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def reap(client: Any, *, only_owner: str | None = None) -> int:
    """Remove labelled containers whose owner process is gone (or all of ``only_owner``'s)."""
    removed = 0
    for c in client.containers.list(all=True, filters={"label": LABEL}):
        owner = c.labels.get(OWNER_LABEL, "")
        if (only_owner is not None and owner == only_owner) or (only_owner is None and not _owner_alive(owner)):
            try:
                c.remove(force=True)
                removed += 1
            except Exception:
                pass  # already gone
    return removed
