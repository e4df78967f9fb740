"""What ``sejury serve`` adds to a judgment: the same judge in-process (``Judge.ajudge``) and over
HTTP (``POST /judge/invoke``, and ``/judge/stream`` to its verdict event), N samples one after the
other (the three paths in turn, sample by sample), against a fake OpenAI-compatible model server
with a fixed latency per call.  Cache off on both sides, the same team and settings; the server is
a real ``sejury serve`` subprocess.  No timing is asserted anywhere: this prints a table.

    .venv/bin/python bench/serve_overhead.py [--n 40] [--latency 0.05] [--team S1,S2,S3]

Three processes: this one (the in-process judge and the HTTP client), the fake model server
(tests/helpers/fake_openai.py) and the server, so that the two paths differ only by the server's hop.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from sejury import Judge, Sample

ROOT = Path(__file__).resolve().parent.parent  # the fake runs here: tests is a package
FAKE = """
import sys
from tests.helpers.fake_openai import FakeOpenAI
with FakeOpenAI(latency=float(sys.argv[1])) as fake:
    print(fake.base_url, flush=True)
    sys.stdin.read()  # until the bench closes our stdin
    print(fake.requests, flush=True)
"""

SAMPLE = {"task": "code_generation", "language": "python", "problem": "Write add(a, b) returning a + b.",
          "candidate": "def add(a, b):\n    return a + b\n", "reference": "def add(a, b):\n    return b + a\n"}


def samples(n: int) -> list[dict[str, str]]:
    return [{"id": f"b{i}", **SAMPLE} for i in range(n)]


class InProcess:
    """The same judge, awaited on one event loop of this process."""

    def __init__(self, base_url: str, team: str | None) -> None:
        self.judge = Judge(model="fake", base_url=base_url, cache=False, traces=False, team=team)
        self.loop = asyncio.new_event_loop()

    def __call__(self, s: dict[str, str]) -> None:
        self.loop.run_until_complete(self.judge.ajudge(Sample.model_validate(s)))

    def close(self) -> None:
        self.judge.close()
        self.loop.close()


def timed_round_robin(paths: dict[str, Callable[[dict[str, str]], None]], items: list[dict[str, str]],
                      warmup: int) -> dict[str, list[float]]:
    """Each sample through every path in turn, so the machine's other load hits all paths alike."""
    for s in items[:warmup]:
        for call in paths.values():
            call(s)
    times: dict[str, list[float]] = {name: [] for name in paths}
    for s in items:
        for name, call in paths.items():
            t0 = time.perf_counter()
            call(s)
            times[name].append(time.perf_counter() - t0)
    return times


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(base_url: str, team: str | None) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "sejury.cli", "serve", "--port", str(port), "--model", "fake", "--base-url",
           base_url, "--no-cache", "--log-level", "warning", "--max-concurrent", "4"]
    if team:
        cmd += ["--team", team]
    proc = subprocess.Popen(cmd, env={**os.environ, "SEJURY_TRACES": "false"}, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("sejury serve did not come up")


def row(name: str, times: list[float], base: list[float] | None) -> str:
    ms = [t * 1000 for t in times]
    mean, median = statistics.fmean(ms), statistics.median(ms)
    p95 = sorted(ms)[max(0, round(0.95 * len(ms)) - 1)]
    if base is None:
        extra = "| – | – |"
    else:
        b = statistics.median(base) * 1000
        extra = f"| {median - b:+.1f} | {median / b:.3f} |"
    return f"| {name} | {len(ms)} | {mean:.1f} | {median:.1f} | {p95:.1f} {extra}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--latency", type=float, default=0.05, help="seconds per model call")
    ap.add_argument("--team", default=None, help="default: the SE-Jury team (6 jurors, 8 calls here)")
    args = ap.parse_args()
    items = samples(args.n)
    fake = subprocess.Popen([sys.executable, "-c", FAKE, str(args.latency)], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert fake.stdin is not None and fake.stdout is not None
    base_url = fake.stdout.readline().strip()
    local = InProcess(base_url, args.team)
    proc, url = start_server(base_url, args.team)
    try:
        with httpx.Client(base_url=url, timeout=60) as c:
            def invoke(s: dict[str, str]) -> None:
                c.post("/judge/invoke", json={"input": s}).raise_for_status()

            def stream(s: dict[str, str]) -> None:
                with c.stream("POST", "/judge/stream", json={"input": s}) as r:
                    r.raise_for_status()
                    for line in r.iter_lines():
                        if line.startswith("data:") and '"event":"verdict"' in line:
                            return
                raise RuntimeError("no verdict event")

            times = timed_round_robin({"local": local, "invoke": invoke, "stream": stream}, items, args.warmup)
    finally:
        local.close()
        proc.terminate()
        proc.wait(30)
        fake.stdin.close()
        calls = int(fake.stdout.readline() or 0) / (3 * (args.n + args.warmup))
        fake.wait(30)
    print(f"## sejury serve overhead: {args.n} samples one at a time, fake model at {args.latency * 1000:.0f} ms "
          f"per call, {calls:.0f} calls per judgment, {os.cpu_count()} cores\n")
    print("| path | n | mean ms | median ms | p95 ms | median overhead ms | ratio (median) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print(row("in-process `Judge.ajudge`", times["local"], None))
    print(row("HTTP `POST /judge/invoke`", times["invoke"], times["local"]))
    print(row("HTTP `POST /judge/stream` (to the verdict)", times["stream"], times["local"]))


if __name__ == "__main__":
    main()
