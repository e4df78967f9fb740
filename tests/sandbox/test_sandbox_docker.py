"""Containment, against the real Docker engine: hostile code gets the right status, leaves the
host and the other runs unharmed, and nothing is left running afterwards."""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import AsyncIterator

import pytest

from sejury.sandbox import ExecStatus, SandboxLimits
from sejury.sandbox.docker import DockerSandbox, prereqs
from sejury.sandbox.docker.config import LABEL, POOL_LABEL

pytestmark = pytest.mark.docker
COUNT_PROCS = "ls /proc | grep -c '^[0-9]'"


@pytest.fixture
async def sandbox() -> AsyncIterator[DockerSandbox]:
    sb = DockerSandbox(size=2, limits=SandboxLimits(memory_mb=256, pids=64))
    yield sb
    await sb.close()


def _ours(sb: DockerSandbox) -> list[object]:
    """The containers of the pool ``sb`` (other pools of this test process have their own)."""
    client = prereqs.client()
    # ignore_removed: a container removed between the listing and its inspection (the pool drops a
    # broken one in the background) is not there, rather than a 404 (docker-py's documented option)
    return client.containers.list(all=True, ignore_removed=True,  # type: ignore[no-any-return]
                                  filters={"label": [LABEL, f"{POOL_LABEL}={sb.id}"]})


async def test_ok_and_failed(sandbox: DockerSandbox) -> None:
    ok = await sandbox.run({"a.py": "print('hi')"}, "python3 a.py", timeout=10)
    assert (ok.status, ok.exit_code, ok.stdout) == (ExecStatus.OK, 0, "hi\n")
    bad = await sandbox.run({}, "echo oops >&2; exit 3", timeout=10)
    assert (bad.status, bad.exit_code, bad.stderr) == (ExecStatus.FAILED, 3, "oops\n")


async def test_large_files_arrive_gzipped_and_too_large_ones_are_said_so(sandbox: DockerSandbox) -> None:
    """An exec carries its files as arguments (2 MiB in all): 4.2 MB that repeat arrive gzipped and
    whole; 2 MB that do not compress are refused before the run with the reason, and the same
    container then runs the next job (before, "argument list too long" from the engine)."""
    text = "class T:\n    def test(self): pass\n" * 120_000
    big = await sandbox.run({"big.py": text}, "wc -c < big.py", timeout=10)
    assert (big.status, big.stdout.strip()) == (ExecStatus.OK, str(len(text))), big
    noise = base64.b64encode(os.urandom(1_500_000)).decode()
    refused = await sandbox.run({"noise.txt": noise}, "wc -c < noise.txt", timeout=10)
    assert refused.status is ExecStatus.FAILED and "over the 2.0 MB a sandbox run can carry" in refused.stderr, refused
    after = await sandbox.run({"a.py": "print('hi')"}, "python3 a.py", timeout=10)
    assert (after.status, after.stdout) == (ExecStatus.OK, "hi\n")


async def test_infinite_loop_times_out(sandbox: DockerSandbox) -> None:
    res = await sandbox.run({"l.py": "while True: pass"}, "python3 l.py", timeout=2)
    assert res.status is ExecStatus.TIMEOUT
    assert res.seconds >= 2  # it ran until the limit, and was stopped by the sandbox, not the host's deadline
    # (after HOST_GRACE more seconds), told apart by what each leaves rather than by the clock: the
    # in-container `timeout` exits 124 when SIGTERM stopped the run; the host's deadline has no exit code
    assert res.exit_code == 124 and "host deadline" not in res.stderr, res


async def test_process_ignoring_sigterm_is_killed(sandbox: DockerSandbox) -> None:
    code = "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nwhile True: time.sleep(1)"
    res = await sandbox.run({"t.py": code}, "python3 t.py", timeout=2)
    assert res.status is ExecStatus.TIMEOUT
    # ended inside the container although it ignores SIGTERM (`timeout` exits 124 once the shell running it
    # is gone, 137 if its SIGKILL was needed; the leftover dies by the wrapper's kill -9), not by the host's
    # deadline after HOST_GRACE more seconds, which leaves no exit code
    assert res.exit_code in (124, 137) and "host deadline" not in res.stderr, res


async def test_memory_bomb_is_oom_not_timeout(sandbox: DockerSandbox) -> None:
    res = await sandbox.run({"m.py": "x = []\nwhile True: x.append(bytearray(10**7))"}, "python3 m.py", timeout=20)
    assert res.status is ExecStatus.OOM and res.exit_code == 137


async def test_fork_bomb_is_capped_and_cleaned_up(sandbox: DockerSandbox) -> None:
    bomb = "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    res = await sandbox.run({"f.py": bomb}, "python3 f.py", timeout=3)
    assert res.status in (ExecStatus.TIMEOUT, ExecStatus.CRASHED)
    shell_bomb = await sandbox.run({"f.sh": ":(){ :|:& };:"}, "bash f.sh; sleep 2", timeout=5)
    assert shell_bomb.status in (ExecStatus.OK, ExecStatus.FAILED, ExecStatus.TIMEOUT)
    limit = await sandbox.run({}, "cat /sys/fs/cgroup/pids/pids.max /sys/fs/cgroup/pids.max 2>/dev/null", timeout=5)
    assert limit.stdout.split()[0] == "64"  # the cap the bomb ran into
    # the next run on the pool starts clean: nothing of the bombs is left
    after = await sandbox.run({}, COUNT_PROCS, timeout=5)
    assert after.status is ExecStatus.OK and int(after.stdout) < 10


async def test_huge_output_is_capped_and_flagged(sandbox: DockerSandbox) -> None:
    res = await sandbox.run({"o.py": "import sys\nsys.stdout.write('x' * 100_000_000)"}, "python3 o.py", timeout=30)
    assert res.status is ExecStatus.OK and res.truncated
    assert len(res.stdout) == sandbox.limits.output_bytes


async def test_no_network(sandbox: DockerSandbox) -> None:
    code = "import socket\nsocket.create_connection(('127.0.0.1', 1), timeout=2)\n"
    local = await sandbox.run({"n.py": code}, "python3 n.py", timeout=10)
    assert local.status is ExecStatus.FAILED and "Connection refused" in local.stderr
    out = await sandbox.run({"n.py": code.replace("'127.0.0.1', 1", "'10.0.0.1', 80")}, "python3 n.py", timeout=10)
    assert out.status is ExecStatus.FAILED and "Network is unreachable" in out.stderr
    ifaces = await sandbox.run({}, "cat /proc/net/dev", timeout=10)
    assert [ln.split(":")[0].strip() for ln in ifaces.stdout.splitlines()[2:]] == ["lo"]


async def test_no_writes_outside_the_work_dir_and_unprivileged(sandbox: DockerSandbox) -> None:
    res = await sandbox.run({}, "touch /etc/x; touch /usr/bin/x; touch /x; touch ./ok && echo ok; id -u; "
                                "grep CapEff /proc/self/status", timeout=10)
    assert res.stderr.count("Read-only file system") == 3
    lines = res.stdout.split()
    assert lines[0] == "ok" and lines[1] == "65534"
    assert res.stdout.strip().endswith("0000000000000000")  # no effective capabilities


async def test_a_bomb_does_not_harm_a_neighbour(sandbox: DockerSandbox) -> None:
    bomb = sandbox.run({"m.py": "x = []\nwhile True: x.append(bytearray(10**7))"}, "python3 m.py", timeout=20)
    calm = sandbox.run({"c.py": "import time\ntime.sleep(1)\nprint(sum(range(1000)))"}, "python3 c.py", timeout=20)
    b, c = await asyncio.gather(bomb, calm)
    assert b.status is ExecStatus.OOM
    assert c.status is ExecStatus.OK and c.stdout == "499500\n"


async def test_one_shot_mode_and_nothing_left_after_close() -> None:
    sb = DockerSandbox(size=1, mode="oneshot")
    res = await sb.run({}, "echo fresh", timeout=10)
    assert res.status is ExecStatus.OK
    await sb.close()
    await asyncio.sleep(0.5)
    assert _ours(sb) == []


async def test_broken_containers_are_replaced(sandbox: DockerSandbox) -> None:
    await sandbox.warm_up()
    before = {c.id for c in _ours(sandbox)}  # type: ignore[attr-defined]
    assert len(before) == sandbox.size
    await sandbox.run({}, "sleep 10", timeout=1)  # the box that timed out is dropped
    res = await sandbox.run({}, "echo still-works", timeout=10)
    assert res.status is ExecStatus.OK
    after = set(before)
    for _ in range(50):  # its removal runs in the background
        after = {c.id for c in _ours(sandbox)}  # type: ignore[attr-defined]
        if before - after:
            break
        await asyncio.sleep(0.2)
    assert before - after, "the container whose run timed out is still there"
    assert len(after) <= sandbox.size


async def test_closing_one_pool_spares_another_pool_of_the_same_process() -> None:
    """Two judges in one process (an agent loop's judge and its ranker): closing one removes its own
    containers only; the other's warm containers keep running its code."""
    first, second = DockerSandbox(size=1), DockerSandbox(size=1)
    try:
        for sb in (first, second):
            res = await sb.run({}, "echo up", timeout=10)
            assert (res.status, res.stdout) == (ExecStatus.OK, "up\n")
        (kept,) = second._all
        await first.close()
        assert not first._all and _ours(first) == []
        assert [c.id for c in _ours(second)] == [kept.container.id]  # type: ignore[attr-defined]
        res = await second.run({}, "echo still", timeout=10)
        assert (res.status, res.stdout) == (ExecStatus.OK, "still\n")
        assert second._all == {kept}  # the same warm container served it, not a replacement
    finally:
        await first.close()
        await second.close()
    assert _ours(first) == [] and _ours(second) == []
