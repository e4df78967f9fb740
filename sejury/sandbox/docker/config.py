"""Names and labels shared by the Docker backend's modules."""

from __future__ import annotations

import os
import socket

LABEL = "org.sejury.sandbox"  # every container we start carries it
OWNER_LABEL = "org.sejury.owner"  # host:pid of the process that started it (for reaping)
POOL_LABEL = "org.sejury.pool"  # the pool that started it: closing one pool spares the process's others
WORKDIR = "/work"
KEEPER_USER = "65533:65533"  # runs `sleep infinity`; not the run user, so `kill -9 -1` after a run spares it
HOST_GRACE = 10.0  # seconds past the in-container timeout before the host gives up on an exec


def owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"
