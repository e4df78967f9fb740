"""Is the engine there, and the image?  Errors say what to do next."""

from __future__ import annotations

from typing import Any

from sejury.errors import SandboxError


def client() -> Any:
    try:
        import docker
    except ImportError as exc:
        raise SandboxError("the docker SDK is missing: pip install docker") from exc
    try:
        c = docker.from_env(timeout=120)  # type: ignore[attr-defined]
        c.ping()
        return c
    except Exception as exc:
        raise SandboxError(
            "no Docker engine answers (is dockerd running, and can this user reach its socket?): "
            f"{exc}. Install and start it: apt-get install -y docker.io && dockerd &") from None


def require_image(c: Any, image: str) -> str:
    """The id of ``image`` (its content's digest, ``sha256:...``); SandboxError when it is missing."""
    import docker.errors

    try:
        return str(c.images.get(image).id)
    except docker.errors.ImageNotFound:
        raise SandboxError(f"the sandbox image {image!r} is missing: build it with `sejury sandbox build`") from None
