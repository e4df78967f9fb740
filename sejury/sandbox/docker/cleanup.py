"""Reaping: containers we label are removed at exit, and at start-up when their owner is gone."""

from __future__ import annotations

import os
import socket
from typing import Any

from sejury.sandbox.docker.config import LABEL, OWNER_LABEL, POOL_LABEL


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


def reap(client: Any, *, only_pool: str | None = None) -> int:
    """Remove labelled containers whose owner process is gone (or all of the pool ``only_pool``'s,
    alive or not: another pool of the same process keeps its own)."""
    removed = 0
    labels = [LABEL] if only_pool is None else [LABEL, f"{POOL_LABEL}={only_pool}"]
    # ignore_removed: one removed meanwhile (by its own pool, in the background) is skipped, not a 404
    for c in client.containers.list(all=True, ignore_removed=True, filters={"label": labels}):
        if only_pool is not None or not _owner_alive(c.labels.get(OWNER_LABEL, "")):
            try:
                c.remove(force=True)
                removed += 1
            except Exception:
                pass  # already gone
    return removed
