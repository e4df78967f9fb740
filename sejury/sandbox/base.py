"""The Sandbox interface: where S5's generated tests run.  Backends live beside this file."""

from __future__ import annotations

from abc import ABC, abstractmethod
from enum import StrEnum

from pydantic import BaseModel


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
    """An isolated place to write files and run commands with a time limit."""

    name: str = "sandbox"

    @abstractmethod
    async def write_files(self, files: dict[str, str]) -> None:
        """Write text files (paths relative to the work dir)."""

    @abstractmethod
    async def exec(self, command: list[str], *, timeout: float) -> ExecResult:
        """Run a command in the work dir; never raises for the command's own failure."""

    async def close(self) -> None:  # noqa: B027 - optional hook
        """Release the sandbox's resources."""
