"""The Docker backend: hardened containers, a warm pool, reaping, image checks."""

from sejury.sandbox.docker.pool import DockerSandbox

__all__ = ["DockerSandbox"]
