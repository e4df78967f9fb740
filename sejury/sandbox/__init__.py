"""Sandboxes for running S5's generated tests.  ``DockerSandbox`` is the default, tested backend."""

from sejury.sandbox.base import ExecResult, ExecStatus, Sandbox, SandboxProvider
from sejury.sandbox.limits import SandboxLimits

__all__ = ["ExecResult", "ExecStatus", "Sandbox", "SandboxLimits", "SandboxProvider"]
