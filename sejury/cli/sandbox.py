"""``sejury sandbox``: build, check and clean the Docker sandbox that runs S5's tests."""

from __future__ import annotations

from typing import Annotated

import typer

from sejury.cli.common import fail, out
from sejury.errors import SejuryError

sandbox_app = typer.Typer(no_args_is_help=True, help="The Docker sandbox that runs S5's tests.")


@sandbox_app.command("build")
def sandbox_build(
    tag: Annotated[str | None, typer.Option(help="Image tag (default: the one sejury runs, sejury-sandbox:N).")] = None,
    registry: Annotated[bool, typer.Option(help="docker build from a registry instead of the offline recipe.")] = False,
    profile: Annotated[str, typer.Option(help="base, or scientific: the base plus Debian's scientific Python "
                                              "stack (numpy, pandas, matplotlib, scikit-learn, scipy, ...).")] = "base",
) -> None:
    """Build a sandbox image (offline by default: mmdebstrap + docker import)."""
    from sejury.paths import sandbox_image
    from sejury.sandbox.docker.image import build

    tag = tag or sandbox_image(profile)
    try:
        build(tag, registry=registry, profile=profile)
    except SejuryError as exc:
        raise fail(exc) from None
    out.print(f"built {tag}")


@sandbox_app.command("check")
def sandbox_check() -> None:
    """Is the engine there, the image built, and does a hardened run work?"""
    from sejury.api import run_sync
    from sejury.sandbox.docker import DockerSandbox

    try:
        sb = DockerSandbox(size=1)
        res = run_sync(sb.run({"check.py": "print('sandbox ok')"}, "python3 check.py", timeout=20))
        run_sync(sb.close())
    except SejuryError as exc:
        raise fail(exc) from None
    out.print(f"{res.status.value}: {res.stdout.strip()} in {res.seconds:.2f}s — {sb.isolation}")
    if res.status != "ok":
        raise typer.Exit(1)


@sandbox_app.command("reap")
def sandbox_reap() -> None:
    """Remove sandbox containers left by processes that are gone."""
    from sejury.sandbox.docker import prereqs
    from sejury.sandbox.docker.cleanup import reap

    try:
        n = reap(prereqs.client())
    except SejuryError as exc:
        raise fail(exc) from None
    out.print(f"removed {n} container(s)")
