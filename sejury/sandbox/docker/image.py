"""The sandbox image recipe, in one place: the toolchains, the environment, and two ways to build
it — offline (mmdebstrap a Debian rootfs from this machine's apt sources, then `docker import`;
no registry needed) or with a registry (`docker build` of the equivalent Dockerfile, which is
also kept at docker/Dockerfile)."""

from __future__ import annotations

import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from sejury import paths
from sejury.errors import SandboxError
from sejury.sandbox import cxx, jvm
from sejury.sandbox.docker.config import LABEL
from sejury.sandbox.interpreters import SEALED_INTERPRETERS
from sejury.sandbox.libraries import PINNED_WHEELS, PROFILES, SCIENTIFIC_PACKAGES

SUITE = "bookworm"
# Python 3.11 + pytest, Node 18, Java 17 (with javac's classes archived: ``sandbox/jvm.py``), g++ 12
# (with <bits/stdc++.h> precompiled: ``sandbox/cxx.py``), Go 1.19; coreutils gives `timeout`; what the
# benchmarks' harnesses rely on: goimports (golang-golang-x-tools) and javatuples (MultiPL-E's Pair)
PACKAGES = ["python3", "python3-pytest", "nodejs", "default-jdk-headless", "g++", "golang-go",
            "golang-golang-x-tools", "libjavatuples-java", "ca-certificates", "coreutils"]
# the "scientific" profile adds Debian bookworm's scientific Python stack: the packages of
# ``sandbox/libraries.py``'s table, which also says what each provides (``SCIENTIFIC_MODULES``); then
# ``PINNED_WHEELS`` over them, for bookworm's Python, in the folder its ``sys.path`` reads first
SCIENTIFIC = list(SCIENTIFIC_PACKAGES)
PYTHON = "3.11"
PINNED_SITE = f"/usr/local/lib/python{PYTHON}/dist-packages"
WHEEL_PLATFORMS = ("manylinux2014_x86_64", "manylinux_2_17_x86_64")
ENV = {
    "PATH": "/usr/lib/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME": "/tmp", "GOCACHE": "/tmp/go-cache", "GOPATH": "/tmp/go", "GOFLAGS": "-mod=mod",
    "GO111MODULE": "on", "GOTOOLCHAIN": "local", "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8",
}
def sealed_copies(root: str = "") -> str:
    """The shell commands that make the execute-only interpreters of the sealed harnesses
    (``execution/sealed.py``; ``root``: the image's root directory when building offline)."""
    return " && ".join(f"cp -L {root}{src} {root}{dst} && chmod 0711 {root}{dst}"
                       for src, dst in SEALED_INTERPRETERS.values())


CHANGES = [*(f"ENV {k}={v}" for k, v in ENV.items()), f"LABEL {LABEL}=1", "WORKDIR /work",
           "USER 65534:65534", 'CMD ["sleep", "infinity"]']


def dockerfile() -> str:
    """The registry recipe (what docker/Dockerfile holds)."""
    return "\n".join([
        "# The sandbox image, for users with a registry: `sejury sandbox build --registry`.",
        "# Generated from sejury/sandbox/docker/image.py; offline, `sejury sandbox build` makes the same image.",
        f"FROM debian:{SUITE}-slim",
        "RUN apt-get update \\",
        f" && apt-get install -y --no-install-recommends {' '.join(PACKAGES)} \\",
        " && rm -rf /var/lib/apt/lists/*",
        f"RUN {sealed_copies()}",
        f"RUN {cxx.precompile()}",
        f"RUN {jvm.archive()}",
        *CHANGES,
    ]) + "\n"


def scientific_dockerfile(base: str, *, pinned: bool = True) -> str:
    """The scientific image: a layer on the base image with Debian's scientific Python stack
    (without Recommends), then the wheels of ``PINNED_WHEELS`` from the build folder's ``site``
    (``pinned_site``); plots render headless."""
    return "\n".join([
        f"FROM {base}",
        "USER 0",
        "RUN apt-get update \\",
        f" && apt-get install -y --no-install-recommends {' '.join(SCIENTIFIC)} \\",
        " && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb",
        *([f"COPY site {PINNED_SITE}"] if pinned else []),
        "ENV MPLBACKEND=Agg",
        "USER 65534:65534",
    ]) + "\n"


def pinned_site(into: Path) -> bool:
    """``PINNED_WHEELS`` downloaded (each checked against its sha256: pip's ``--require-hashes``)
    and unpacked into ``into``, for the image's Python on x86-64; False (and the image keeps
    Debian's versions) on another machine, whose wheels these hashes are not."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        print(f"note: the scientific image keeps Debian's {', '.join(PINNED_WHEELS)}: their pinned wheels "
              f"are x86-64's, this machine is {platform.machine()}", file=sys.stderr)
        return False
    wanted = into.parent / "pinned.txt"
    wanted.write_text("".join(f"{name}=={version} --hash=sha256:{digest}\n"
                              for name, (version, digest) in PINNED_WHEELS.items()))
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
           "--only-binary=:all:", "--require-hashes", "--implementation", "cp", "--python-version", PYTHON,
           *(f"--platform={p}" for p in WHEEL_PLATFORMS), "--target", str(into), "-r", str(wanted)]
    if subprocess.run(cmd).returncode != 0:
        raise SandboxError(f"could not fetch the scientific image's pinned wheels ({', '.join(PINNED_WHEELS)}) "
                           "from PyPI, or one did not match its sha256 (pip's message is above)")
    return True


def _need(tool: str, hint: str) -> None:
    if shutil.which(tool) is None:
        raise SandboxError(f"{tool} is missing: {hint}")


def build(tag: str | None = None, *, registry: bool = False, profile: str = "base") -> None:
    """Build a profile's sandbox image (``tag``, default ``paths.sandbox_image(profile)``).  The
    base: offline from Debian's packages with mmdebstrap, or from the Dockerfile through a registry.
    The scientific one: a layer on the base image (built first when missing), its packages from the
    same Debian suite, and ``PINNED_WHEELS`` from PyPI."""
    if profile not in PROFILES:
        raise SandboxError(f"no sandbox profile {profile!r}; profiles: {', '.join(PROFILES)}")
    tag = tag or paths.sandbox_image(profile)
    _need("docker", "apt-get install -y docker.io, then start dockerd")
    with tempfile.TemporaryDirectory(prefix="sejury-image-") as tmp:
        if profile == "scientific":
            base = paths.sandbox_image()
            if subprocess.run(["docker", "image", "inspect", base], capture_output=True).returncode != 0:
                build(base, registry=registry)
            pinned = pinned_site(Path(tmp) / "site")
            (Path(tmp) / "Dockerfile").write_text(scientific_dockerfile(base, pinned=pinned))
            _run(["docker", "build", "-q", "-t", tag, tmp])
            return
        if registry:
            (Path(tmp) / "Dockerfile").write_text(dockerfile())
            _run(["docker", "build", "-t", tag, tmp])
            return
        _need("mmdebstrap", "apt-get install -y mmdebstrap (or build with --registry)")
        rootfs = str(Path(tmp) / "rootfs.tar")
        _run(["mmdebstrap", "--quiet", "--variant=minbase", f"--include={','.join(PACKAGES)}",
              "--customize-hook=rm -rf \"$1\"/var/cache/apt/archives/*.deb \"$1\"/var/lib/apt/lists/*",
              "--customize-hook=" + sealed_copies(root='"$1"'),
              f"--customize-hook=chroot \"$1\" sh -c '{cxx.precompile()}'",
              f"--customize-hook=chroot \"$1\" sh -c '{jvm.archive()}'",
              SUITE, rootfs])
        changes = [arg for c in CHANGES for arg in ("--change", c)]
        _run(["docker", "import", *changes, rootfs, tag])


def _run(cmd: list[str]) -> None:
    try:
        subprocess.run(cmd, check=True)
    except subprocess.CalledProcessError as exc:
        raise SandboxError(f"{cmd[0]} failed with exit status {exc.returncode}") from None
