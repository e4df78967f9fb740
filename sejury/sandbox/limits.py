"""Resource limits of one sandboxed run.  Defaults fit this project's 2-core, 24 GiB machines."""

from __future__ import annotations

from pydantic import BaseModel, Field


class SandboxLimits(BaseModel):
    memory_mb: int = Field(512, ge=64)  # memory and memory+swap: no swap
    cpus: float = Field(1.0, gt=0)
    pids: int = Field(256, ge=16)  # fork bombs stop here (the JVM needs a few dozen threads)
    work_mb: int = Field(64, ge=8)  # the writable work dir (tmpfs)
    tmp_mb: int = Field(256, ge=8)  # /tmp (tmpfs): HOME, the Go build cache
    output_bytes: int = Field(64 * 1024, ge=1024)  # per stream; more is dropped and flagged
    user: str = "65534:65534"  # nobody
