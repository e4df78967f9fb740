"""The Docker sandbox provider: a pool of warm containers (exec into running ones) for
throughput, or a fresh container per run for isolation, behind one concurrency bound."""

from __future__ import annotations

import asyncio
import atexit
import os
import uuid
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from typing import Any, Literal

from sejury import paths
from sejury.sandbox.base import ExecResult, Sandbox, SandboxProvider
from sejury.sandbox.docker import cleanup, prereqs
from sejury.sandbox.docker.box import Box
from sejury.sandbox.docker.config import owner
from sejury.sandbox.limits import SandboxLimits


class _BoxSandbox(Sandbox):
    def __init__(self, box: Box) -> None:
        self.box = box

    async def run(self, files: dict[str, str], command: str, *, timeout: float) -> ExecResult:
        return await self.box.run(files, command, timeout=timeout)


class DockerSandbox(SandboxProvider):
    """``mode="warm"``: up to ``size`` running containers, each serving one run at a time and
    replaced after a run that timed out, ran out of memory or crashed.  ``mode="oneshot"``: a
    new container per run, removed after it."""

    name = "docker"

    def __init__(self, image: str | None = None, *, limits: SandboxLimits | None = None,
                 size: int | None = None, mode: Literal["warm", "oneshot"] = "warm", profile: str = "base") -> None:
        self.profile = profile
        self.image = image = image or paths.sandbox_image(profile)
        self._siblings: dict[str, DockerSandbox] = {}
        self.limits = limits or SandboxLimits()
        self.size = size or max(1, os.cpu_count() or 1)
        self.mode = mode
        self.client: Any = prereqs.client()
        self.image_id = prereqs.require_image(self.client, image)
        cleanup.reap(self.client)  # leftovers of dead runs
        self.id = f"{owner()}:{uuid.uuid4().hex[:12]}"  # its containers' pool label
        self._idle: list[Box] = []
        self._all: set[Box] = set()
        self._sem: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        atexit.register(self._close_blocking)
        lim = self.limits
        self.isolation = (f"docker ({mode}): no network, {lim.memory_mb} MB memory+swap, {lim.cpus:g} CPU, "
                          f"{lim.pids} pids, read-only root, tmpfs work dir, user {lim.user}, all capabilities "
                          "dropped, no-new-privileges, init process")

    def for_profile(self, profile: str) -> SandboxProvider:
        """A pool of the same limits, size and mode on ``profile``'s image, made on first use."""
        if profile == self.profile:
            return self
        if profile not in self._siblings:
            self._siblings[profile] = DockerSandbox(limits=self.limits, size=self.size, mode=self.mode,
                                                    profile=profile)
        return self._siblings[profile]

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._sem is None or self._loop is not loop:
            self._sem, self._loop = asyncio.Semaphore(self.size), loop
        return self._sem

    async def _new_box(self) -> Box:
        box = await asyncio.to_thread(Box, self.client, self.image, self.limits, self.id)
        self._all.add(box)
        return box

    async def _drop(self, box: Box) -> None:
        self._all.discard(box)
        await asyncio.to_thread(box.remove)

    def acquire(self) -> AbstractAsyncContextManager[Sandbox]:
        return self._acquire()

    @asynccontextmanager
    async def _acquire(self) -> AsyncIterator[Sandbox]:
        async with self._semaphore():
            box = self._idle.pop() if (self.mode == "warm" and self._idle) else await self._new_box()
            try:
                yield _BoxSandbox(box)
            finally:
                if self.mode == "warm" and not box.broken:
                    self._idle.append(box)
                else:
                    # removal need not delay the next run
                    asyncio.get_running_loop().create_task(self._drop(box))

    async def warm_up(self) -> None:
        """Start the warm containers now rather than on first use."""
        need = self.size - len(self._idle)
        if self.mode == "warm" and need > 0:
            self._idle += await asyncio.gather(*(self._new_box() for _ in range(need)))

    async def close(self) -> None:
        await asyncio.to_thread(self._close_blocking)

    def _close_blocking(self) -> None:
        for sibling in self._siblings.values():
            sibling._close_blocking()
        for box in list(self._all):
            box.remove()
        self._all.clear()
        self._idle.clear()
        with suppress(Exception):
            cleanup.reap(self.client, only_pool=self.id)  # a box started as the pool closed
