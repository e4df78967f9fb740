"""The Sandbox interface: where S5's generated tests run.  Backends live beside this file."""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager
from enum import StrEnum

from pydantic import BaseModel

from sejury.sandbox.libraries import start_allowance


class ExecStatus(StrEnum):
    OK = "ok"  # exit status 0
    FAILED = "failed"  # non-zero exit status
    TIMEOUT = "timeout"
    OOM = "out_of_memory"
    CRASHED = "crashed"  # killed by a signal, or the sandbox itself broke


class ExecResult(BaseModel):
    status: ExecStatus
    exit_code: int | None
    stdout: str = ""
    stderr: str = ""
    truncated: bool = False  # stdout/stderr were capped
    seconds: float = 0.0


class Sandbox(ABC):
    """An isolated place that serves one run at a time."""

    @abstractmethod
    async def run(self, files: dict[str, str], command: str, *, timeout: float) -> ExecResult:
        """Write ``files`` (relative paths) into a fresh work dir, run ``command`` (a shell command
        line) there with a time limit.  Never raises for the command's own failure."""


class SandboxProvider(ABC):
    """Hands out sandboxes (warm or fresh) and bounds how many run at once."""

    name: str = "sandbox"
    isolation: str = ""  # one line for the verdict: what protects the host
    profile: str = "base"  # which image's libraries it runs with (``sandbox/libraries.py``)
    # what it runs, where that can change under the same name (a Docker image's id): part of the
    # cache key of every result it gives (``graph/member.py``), so a rebuilt image is judged again
    image_id: str = ""

    def for_profile(self, profile: str) -> SandboxProvider:
        """The provider for another profile's image; a backend with a single image returns itself.
        Raises SandboxError when that image is not there."""
        return self

    @abstractmethod
    def acquire(self) -> AbstractAsyncContextManager[Sandbox]:
        """``async with provider.acquire() as sb: await sb.run(...)``"""

    async def run(self, files: dict[str, str], command: str, *, timeout: float) -> ExecResult:
        """One run in a sandbox of this provider; ``timeout`` is the program's own limit, and this
        profile's image adds its start-up allowance (``libraries.start_allowance``)."""
        async with self.acquire() as sb:
            return await sb.run(files, command, timeout=timeout + start_allowance(self.profile))

    async def close(self) -> None:  # noqa: B027 - optional hook
        """Release every resource (containers, processes)."""
