"""One hardened container, and one run in it: write files, run a command under a time limit,
classify the outcome.

Every run is a single ``exec`` (~60 ms warm): a small shell script empties the work dir, unpacks
the files (a base64 tar, gzipped when large, passed as arguments: ``put_archive`` silently drops files in a tmpfs and
fails on a read-only root), runs the command under ``timeout -k`` (exec itself has no timeout),
and prints a trailer with the exit status and the cgroup's OOM-kill counter before and after, so
an OOM kill is told apart from a timeout (both give exit 137).  The host also keeps a deadline
and kills the container if the exec outlives it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import re
import tarfile
import time
from collections import deque
from typing import Any

from sejury.sandbox.base import ExecResult, ExecStatus
from sejury.sandbox.docker.config import HOST_GRACE, KEEPER_USER, LABEL, OWNER_LABEL, POOL_LABEL, WORKDIR, owner
from sejury.sandbox.limits import SandboxLimits

_CHUNK = 100_000  # below Linux's 128 KiB limit on one argument
_TRAILER = re.compile(rb"\n?@@SEJURY-END (\d+)\|([^|\n]*)\|([^|\n]*)\n?$")
_OOM_FILES = "/sys/fs/cgroup/memory/memory.oom_control /sys/fs/cgroup/memory.events"  # cgroup v1, v2
# Shell builtins wherever possible: every process the wrapper starts costs the warm path time.
# Two stages: the first unpacks the files (which arrive as its arguments) and replaces itself with
# the second (``exec``), so no process of the run holds them on its command line any more: a sealed
# harness deletes the files the program must not read (the tests, the run's key) before it starts
# it, and /proc/<pid>/cmdline of the wrapper would otherwise still show them.  The first stage also
# empties what an earlier run of the same user could have left in the container's writable places
# (the work dir and /tmp, the Go caches excepted), so no run plants code for the next one.
_RUN = f"""
oom() {{ n=0; for f in {_OOM_FILES}; do [ -r "$f" ] || continue
  while read -r k v; do [ "$k" = oom_kill ] && n=$v; done < "$f"; done; echo "oom_kill $n"; }}
b=$(oom)
timeout -k 2 "$SEJURY_TIMEOUT" sh -c "$SEJURY_CMD"
rc=$?
kill -9 -1 2>/dev/null  # whatever the run left behind (kill -1 spares the caller itself)
a=$(oom)
printf '\\n@@SEJURY-END %s|%s|%s\\n' "$rc" "$b" "$a"
exit $rc
"""
_SCRIPT = f"""
cd {WORKDIR} 2>/dev/null && for p in {WORKDIR}/* {WORKDIR}/.[!.]* /tmp/* /tmp/.[!.]*; do
  case "$p" in /tmp/go|/tmp/go-cache|*"*") ;; *) rm -rf "$p" 2>/dev/null ;; esac; done
mkdir -p {WORKDIR}/r && cd {WORKDIR}/r || exit 125
z=$1; shift  # -z: the tar is gzipped (a large one); -o otherwise
for p in "$@"; do printf %s "$p"; done | base64 -d | tar -x -o "$z" -f - \
  || {{ echo "sandbox: cannot unpack files" >&2; exit 125; }}
exec sh -c "$SEJURY_RUN"
"""


# An exec's arguments and environment together may hold 2 MiB (Linux's ARG_MAX, a quarter of the
# 8 MiB stack): the packed files get what the script and the environment leave of it.  Files over
# ``_GZIP_FROM`` bytes are gzipped first (the units of a large suite repeat what surrounds their
# tests, and shrink ten to a hundred times); a small run starts no gzip process.
_ARGS_ROOM = 2_000_000
_GZIP_FROM = 200_000


class TooLarge(Exception):
    """The files of a run do not fit in an exec's arguments, even gzipped."""


def _tar_chunks(files: dict[str, str]) -> list[str]:
    """The files as a tar, base64, in argument-sized chunks, after the tar's flag (``-z`` or ``-o``)."""
    raw = sum(len(t) for t in files.values())
    buf = io.BytesIO()
    zipped = raw > _GZIP_FROM
    with (tarfile.open(fileobj=buf, mode="w:gz", compresslevel=1) if zipped else
          tarfile.open(fileobj=buf, mode="w")) as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            info.mtime = int(time.time())
            tar.addfile(info, io.BytesIO(data))
    b64 = base64.b64encode(buf.getvalue()).decode()
    if len(b64) > _ARGS_ROOM:
        raise TooLarge(f"the files to run ({raw / 1e6:.1f} MB; {len(b64) / 1e6:.1f} MB packed) are over the "
                       f"{_ARGS_ROOM / 1e6:.1f} MB a sandbox run can carry")
    return ["-z" if zipped else "-o", *([b64[i:i + _CHUNK] for i in range(0, len(b64), _CHUNK)] or [""])]


class _Capped:
    """Keeps the first ``cap`` bytes of a stream, and its last few KiB for the trailer."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.head = bytearray()
        self.tail: deque[bytes] = deque()
        self.tail_len = 0
        self.total = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        if len(self.head) < self.cap:
            self.head += chunk[: self.cap - len(self.head)]
        self.tail.append(chunk)
        self.tail_len += len(chunk)
        while self.tail_len - len(self.tail[0]) >= 4096:
            self.tail_len -= len(self.tail.popleft())

    def tail_bytes(self) -> bytes:
        return b"".join(self.tail)[-4096:]


def _oom_count(text: bytes | str) -> int:
    m = re.search(r"oom_kill (\d+)", text.decode() if isinstance(text, bytes) else text)
    return int(m.group(1)) if m else 0


class Box:
    """A running, hardened container that serves one run at a time."""

    def __init__(self, client: Any, image: str, limits: SandboxLimits, pool: str = "") -> None:
        self.client = client
        self.limits = limits
        lim = limits
        uid, _, gid = lim.user.partition(":")
        gid = gid or uid
        self.container = client.containers.run(
            # the keeper process has its own uid, so a run (as lim.user) can never signal it
            image, command=["sleep", "infinity"], detach=True, init=True,
            network_mode="none", read_only=True, user=KEEPER_USER, working_dir=WORKDIR,
            mem_limit=f"{lim.memory_mb}m", memswap_limit=f"{lim.memory_mb}m",
            pids_limit=lim.pids, nano_cpus=int(lim.cpus * 1e9),
            cap_drop=["ALL"], security_opt=["no-new-privileges"],
            # owned by the run's user: Docker resets the mode of a tmpfs mounted on the workdir
            tmpfs={WORKDIR: f"rw,exec,nosuid,nodev,size={lim.work_mb}m,uid={uid},gid={gid},mode=700",
                   "/tmp": f"rw,exec,nosuid,nodev,size={lim.tmp_mb}m,mode=1777"},
            labels={LABEL: "1", OWNER_LABEL: owner(), POOL_LABEL: pool},
        )
        self.broken = False

    def remove(self) -> None:
        with contextlib.suppress(Exception):
            self.container.remove(force=True)

    async def run(self, files: dict[str, str], command: str, *, timeout: float) -> ExecResult:
        start = time.perf_counter()
        try:
            result = await asyncio.wait_for(
                asyncio.to_thread(self._run_blocking, files, command, timeout, start),
                timeout + HOST_GRACE)
        except TimeoutError:
            # exec outlived the in-container timeout by far: kill the container; the pool replaces it
            self.broken = True
            await asyncio.to_thread(self.remove)
            return ExecResult(status=ExecStatus.TIMEOUT, exit_code=None, seconds=time.perf_counter() - start,
                              stderr="sandbox: killed by the host deadline")
        if result.status in (ExecStatus.TIMEOUT, ExecStatus.OOM, ExecStatus.CRASHED):
            self.broken = True  # leftovers (background processes, memory) must not reach the next run
        return result

    def _run_blocking(self, files: dict[str, str], command: str, timeout: float, start: float) -> ExecResult:
        api = self.client.api
        try:
            packed = _tar_chunks(files)
        except TooLarge as exc:  # said as it is: the run never starts, the container stays sound
            return ExecResult(status=ExecStatus.FAILED, exit_code=None, stderr=f"sandbox: {exc}",
                              seconds=time.perf_counter() - start)
        try:
            exec_id = api.exec_create(
                self.container.id, ["sh", "-c", _SCRIPT, "sh", *packed], user=self.limits.user,
                workdir=WORKDIR,
                environment={"SEJURY_CMD": command, "SEJURY_TIMEOUT": f"{timeout:g}", "SEJURY_RUN": _RUN},
            )["Id"]
            out, err = _Capped(self.limits.output_bytes), _Capped(self.limits.output_bytes)
            for o, e in api.exec_start(exec_id, stream=True, demux=True):
                if o:
                    out.add(o)
                if e:
                    err.add(e)
            # the trailer carries the exit status; ask the engine only when it is missing
            code = None if _TRAILER.search(out.tail_bytes()) else api.exec_inspect(exec_id).get("ExitCode")
        except Exception as exc:  # the engine or the container broke
            self.broken = True
            return ExecResult(status=ExecStatus.CRASHED, exit_code=None, stderr=f"sandbox: {exc}",
                              seconds=time.perf_counter() - start)
        seconds = time.perf_counter() - start
        stdout = bytes(out.head)
        truncated = out.total > out.cap or err.total > err.cap
        m = _TRAILER.search(out.tail_bytes())
        oom = False
        if m:
            rc = int(m.group(1))
            oom = _oom_count(m.group(3)) > _oom_count(m.group(2))
            # drop the trailer from what the user sees
            if out.total <= out.cap:
                stdout = stdout[: len(stdout) - len(m.group(0))]
        else:  # the wrapper itself was killed (the OOM killer may pick it): ask the cgroup
            rc = code if code is not None else -1
            oom = self._oom_since_start()
        if oom:
            status = ExecStatus.OOM
        elif rc == 124 or (rc == 137 and seconds >= timeout):
            status = ExecStatus.TIMEOUT
        elif rc == 0:
            status = ExecStatus.OK
        elif rc == 125 and not m:
            status = ExecStatus.CRASHED  # the wrapper could not set up the work dir
        elif rc > 128:
            status = ExecStatus.CRASHED  # killed by a signal (segfault, abort, kill)
        else:
            status = ExecStatus.FAILED
        return ExecResult(status=status, exit_code=rc, stdout=stdout.decode(errors="replace"),
                          stderr=bytes(err.head).decode(errors="replace"), truncated=truncated,
                          seconds=seconds)

    def _oom_since_start(self) -> bool:
        try:
            res = self.container.exec_run(["sh", "-c", f"cat {_OOM_FILES} 2>/dev/null | grep oom_kill"])
            self.container.reload()
            return _oom_count(res.output or b"") > 0 or bool(self.container.attrs["State"].get("OOMKilled"))
        except Exception:
            return False
