"""Batch throughput against a fixed-latency model: how close ``sejury batch`` comes to the ideal.

    .venv/bin/python bench/throughput.py [--latency 0.2] [--concurrency 1,8,32,128] [--repeat 3] [--samples N]

One command: it starts its own fake OpenAI-compatible server on 127.0.0.1 (``bench/fake_server.py``,
asyncio, every reply parseable) and runs the real CLI, ``sejury batch`` as a subprocess, with its
default settings (result cache and trace store on, each run with fresh files; run file fsynced)
and ``--concurrency C --llm-concurrency C``: samples in flight = calls in flight = C.

It prints (markdown):
- the overhead at zero latency: wall per sample at concurrency 1, samples/s at concurrency 32, and
  the CPU of the sejury process per sample and per call (a larger batch's minus a smaller one's,
  so start-up is not counted);
- at each concurrency: samples, calls per sample, the batch's wall time (the fake server's first
  request in to last reply out, so the process's start-up is shown apart), the ideal, their ratio
  (median of ``--repeat`` runs, and the range), samples/s, and the ratio a bare aiohttp client
  reaches making the same calls with the same dependencies (the floor of this machine and server);
- calls per sample and the critical path of each team;
- the whole process as a user sees it (``--process-samples``, default 96 and 480 samples at
  ``--process-concurrency`` 32): the clock starts before the process does and stops when it has
  exited, so start-up, the first request's wait and shutdown count; its ratio to the ideal, and
  the start-up alone (process start to the fake server's first request).  ``--before DIR`` (and
  ``--after DIR``): time two checkouts in this table, each by ``PYTHONPATH=DIR`` (a ``git archive``
  export or a worktree; without ``--after``, the installed sejury), their runs alternating so load
  from other jobs falls on both alike; min / median / max of ``--repeat`` runs each.

The ideal: with k calls per sample, a critical path d calls deep (the default team: S2 after S1,
S4's and S5's two steps, so d = 2), N samples and C calls and samples in flight, no schedule beats
``max(ceil(N*k / C), d * ceil(N / C))`` waves of one latency L each: the calls fill C slots, and a
sample holds one of C sample slots for at least d waves.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

BENCH = Path(__file__).resolve().parent
DEFAULT_CONCURRENCY = (1, 8, 32, 128)
TEAMS = ("S1", "S1,S2", "S3", "S4", "S5", "default")


def sample(i: int, tag: str) -> dict[str, Any]:
    """A code-generation sample with a reference: the default team runs all six LLM jurors on it."""
    return {"id": f"{tag}-{i}", "task": "code_generation", "language": "python",
            "problem": f"Write add_{i}(a, b) returning the sum of a and b ({tag}).",
            "candidate": f"def add_{i}(a, b):\n    return a + b\n",
            "reference": f"def add_{i}(a, b):\n    return b + a\n"}


class Fake:
    """The fake model server, a subprocess."""

    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.proc = subprocess.Popen([sys.executable, str(BENCH / "fake_server.py"), "--latency", str(latency)],
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.base_url = self.proc.stdout.readline().strip()
        self.root = self.base_url.removesuffix("/v1")
        self.http = httpx.Client(timeout=10)

    def reset(self) -> None:
        self.http.post(self.root + "/reset").raise_for_status()

    def stats(self) -> dict[str, Any]:
        stats: dict[str, Any] = self.http.get(self.root + "/stats").json()
        return stats

    def close(self) -> None:
        self.http.close()
        self.proc.terminate()
        self.proc.wait(10)


@dataclass
class Run:
    samples: int
    concurrency: int
    span: float  # the server's first request in to last reply out
    process: float  # the whole subprocess, start-up included
    first_request: float  # before the process starts to the server's first request (start-up)
    cpu: float  # user + system seconds of the sejury process
    requests: int
    peak_in_flight: int
    calls_per_sample: float
    scored: int
    server_cpu: float


def batch(fake: Fake, n: int, concurrency: int, work: Path, *, team: str | None = None, tag: str = "",
          env: dict[str, str] | None = None) -> Run:
    """``sejury batch`` on ``n`` fresh samples (fresh cache, trace store and run file); ``env``: more
    environment for the process (``bench/startup.py`` sets PYTHONPATH to time another checkout)."""
    tag = tag or f"c{concurrency}n{n}t{time.monotonic_ns()}"
    folder = work / tag
    folder.mkdir()
    data = folder / "in.jsonl"
    data.write_text("".join(json.dumps(sample(i, tag)) + "\n" for i in range(n)))
    out = folder / "out.jsonl"
    cmd = [sys.executable, "-m", "sejury.cli", "batch", str(data), "-o", str(out),
           "--concurrency", str(concurrency), "--llm-concurrency", str(concurrency),
           "--model", "fake", "--base-url", fake.base_url,
           "--cache-path", str(folder / "results.sqlite"), "--trace-path", str(folder / "traces.sqlite")]
    if team and team != "default":
        cmd += ["--team", team]
    fake.reset()
    log = folder / "stderr.txt"
    with log.open("wb") as err:
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, cwd=work,
                                env={**os.environ, "COLUMNS": "120", **(env or {})})
        _, status, usage = os.wait4(proc.pid, 0)
        process = time.monotonic() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"sejury batch failed ({proc.returncode}):\n{log.read_text()}")
    st = fake.stats()
    verdicts = [json.loads(line) for line in out.read_text().splitlines()]
    if len(verdicts) != n:
        raise SystemExit(f"expected {n} verdicts, got {len(verdicts)}")
    return Run(samples=n, concurrency=concurrency, span=(st["last_reply"] or t0) - (st["first_request"] or t0),
               process=process, first_request=(st["first_request"] or t0) - t0, cpu=usage.ru_utime + usage.ru_stime,
               requests=st["requests"],
               peak_in_flight=st["peak_in_flight"], calls_per_sample=sum(v["llm_calls"] for v in verdicts) / n,
               scored=sum(v["status"] == "scored" for v in verdicts), server_cpu=st["cpu_seconds"])


def depth(team: str | None) -> int:
    """The critical path of a team, in calls, on a sample with a reference (from the specs)."""
    from sejury import Sample
    from sejury.config import parse_team
    from sejury.graph.supervisor import resolve_team
    from sejury.strategies import spec

    s = Sample.model_validate(sample(0, "depth"))
    parsed = parse_team(team) if team and team != "default" else None
    members = resolve_team(s, parsed if isinstance(parsed, list) else None, None)

    def path(name: str) -> int:
        sp = spec(name)
        feeder = sp.feeder_for(s)
        return sp.llm_calls + (path(feeder.value) if feeder is not None else 0)

    return max(path(m.value) for m in members)


def ideal(n: int, k: float, d: int, c: int, latency: float) -> float:
    return max(math.ceil(n * k / c), d * math.ceil(n / c)) * latency


def auto_samples(c: int) -> int:
    return 4 if c == 1 else max(96, 3 * c)


async def _bare(base_url: str, n: int, c: int) -> None:
    """The same calls with no judge around them: per sample, S1-ref then S2, S4's two steps, S5's two
    steps, S1 and S3, through one aiohttp session; samples in flight and calls in flight both c."""
    import aiohttp

    samples, calls = asyncio.Semaphore(c), asyncio.Semaphore(c)
    body = {"model": "fake", "messages": [{"role": "user", "content": "Task: write tests"}], "max_tokens": 384}
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        async def call() -> None:
            async with calls, http.post(base_url + "/chat/completions", json=body) as resp:
                await resp.read()

        async def chain(steps: int) -> None:
            for _ in range(steps):
                await call()

        async def one() -> None:
            async with samples:
                await asyncio.gather(*(chain(steps) for steps in (2, 1, 1, 2, 2)))

        await asyncio.gather(*(one() for _ in range(n)))


def bare(fake: Fake, n: int, c: int) -> float:
    """The wall time (server side) of the judge's call graph made by a bare client: the floor this
    machine, this fake server and the dependency chain allow."""
    fake.reset()
    asyncio.run(_bare(fake.base_url, n, c))
    st = fake.stats()
    return float(st["last_reply"] - st["first_request"])


def median(xs: list[float]) -> float:
    return statistics.median(xs)


@dataclass
class Variant:
    """A checkout to time: ``env`` is added to the environment of its runs (``PYTHONPATH``)."""

    name: str
    env: dict[str, str]


def variants_of(before: Path | None, after: Path | None, work: Path) -> list[Variant]:
    """The checkouts the whole-process table times (none given: the installed sejury alone), each
    checked to import its own sejury where the runs run, and byte-compiled first as an install is:
    with PYTHONDONTWRITEBYTECODE set, an export would otherwise compile its modules in every run."""
    found = []
    for name, root in (("before", before), ("after", after)):
        if root is None:
            if name == "after" and before is not None:
                found.append(Variant("after", {}))
            continue
        compileall.compile_dir(root / "sejury", quiet=1)
        env = {"PYTHONPATH": str(root.resolve())}
        out = subprocess.run([sys.executable, "-c", "import sejury; print(sejury.__file__)"], capture_output=True,
                             text=True, check=True, cwd=work, env={**os.environ, **env}).stdout.strip()
        if not Path(out).resolve().is_relative_to(root.resolve()):
            raise SystemExit(f"{name}: imports {out}, not the checkout {root}")
        found.append(Variant(name, env))
    return found or [Variant("", {})]


def spread(xs: list[float], digits: int = 2) -> str:
    return f"{min(xs):.{digits}f} / **{median(xs):.{digits}f}** / {max(xs):.{digits}f}"


def process_rows(fake: Fake, sizes: list[int], c: int, d: int, latency: float, repeat: int, work: Path,
                 variants: list[Variant]) -> list[str]:
    """The whole process against the ideal, one row per batch size (and variant): what a user waits
    for.  The variants' runs alternate, so load from other jobs falls on each alike."""
    rows = []
    for v in variants:  # warm the disk cache and write each checkout's .pyc files
        batch(fake, 8, c, work, env=v.env)
    for n in sizes:
        runs: dict[str, list[Run]] = {v.name: [] for v in variants}
        for _ in range(repeat):
            for v in variants:
                runs[v.name].append(batch(fake, n, c, work, env=v.env))
        for v in variants:
            rs = runs[v.name]
            best = ideal(n, rs[0].calls_per_sample, d, c, latency)
            label = f" {v.name} |" if v.name else ""
            rows.append(f"| {c} | {n} |{label} {best:.2f} | {spread([r.process for r in rs])} | "
                        f"{spread([best / r.process for r in rs], 3)} | {spread([r.first_request for r in rs])} | "
                        f"{median([r.span for r in rs]):.2f} | {median([best / r.span for r in rs]):.3f} |")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latency", type=float, default=0.2, help="seconds per model call (default 0.2)")
    ap.add_argument("--concurrency", default=",".join(map(str, DEFAULT_CONCURRENCY)))
    ap.add_argument("--samples", type=int, default=None,
                    help="samples per run (default: 4 at concurrency 1, else max(96, 3 x concurrency))")
    ap.add_argument("--repeat", type=int, default=3, help="runs per concurrency; the median is shown (default 3)")
    ap.add_argument("--no-zero", action="store_true", help="skip the zero-latency overhead runs")
    ap.add_argument("--no-teams", action="store_true", help="skip the calls-per-team table")
    ap.add_argument("--process-samples", default="96,480",
                    help="batch sizes of the whole-process table (default 96,480; empty: skip it)")
    ap.add_argument("--process-concurrency", type=int, default=32, help="its concurrency (default 32)")
    ap.add_argument("--before", type=Path, default=None,
                    help="another checkout to time in the whole-process table too, by PYTHONPATH (e.g. a git archive "
                         "export of an older commit)")
    ap.add_argument("--after", type=Path, default=None,
                    help="with --before: the checkout to compare it with (default: the installed sejury)")
    args = ap.parse_args()
    levels = [int(c) for c in args.concurrency.split(",") if c.strip()]
    sizes = [int(n) for n in args.process_samples.split(",") if n.strip()]
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="sejury-bench-") as tmp:
        work = Path(tmp)
        print(f"## sejury batch throughput ({os.cpu_count()} cores, load {load:.2f} at the start)\n")
        if not args.no_zero:
            zero = Fake(0.0)
            try:
                batch(zero, 4, 1, work)  # warm the disk cache and the interpreter's files
                small, large = batch(zero, 8, 1, work), batch(zero, 40, 1, work)
                few, busy = batch(zero, 32, 32, work), batch(zero, 128, 32, work)
            finally:
                zero.close()
            per1 = (large.cpu - small.cpu) / (large.samples - small.samples)
            per32 = (busy.cpu - few.cpu) / (busy.samples - few.samples)
            k = large.calls_per_sample
            print("### Overhead at zero latency (default team, 8 calls a sample)\n")
            print("CPU per sample: the sejury process's user + system CPU of a larger batch minus a smaller one, "
                  "so start-up is not counted.\n")
            print(f"- concurrency 1, {large.samples} samples: **{large.span / large.samples * 1000:.1f} ms wall per "
                  f"sample** ({large.span / large.requests * 1000:.2f} ms per call, of which the fake server's CPU "
                  f"{large.server_cpu / large.requests * 1000:.2f} ms); CPU {per1 * 1000:.1f} ms per sample, "
                  f"{per1 / k * 1000:.2f} ms per call")
            print(f"- concurrency 32, {busy.samples} samples: **{busy.samples / busy.span:.0f} samples/s** "
                  f"({busy.requests / busy.span:.0f} calls/s); CPU **{per32 * 1000:.1f} ms per sample**, "
                  f"{per32 / k * 1000:.2f} ms per call")
            print(f"- start-up (`sejury batch` with 8 samples, all included): {small.process:.2f} s wall, "
                  f"{small.cpu:.2f} s CPU\n")
        fake = Fake(args.latency)
        rows: list[str] = []
        try:
            d = depth(None)
            for c in levels:
                n = args.samples or auto_samples(c)
                runs = [batch(fake, n, c, work) for _ in range(args.repeat)]
                floor = median([bare(fake, n, c) for _ in range(args.repeat)])
                k = runs[0].calls_per_sample
                best = ideal(n, k, d, c, args.latency)
                wall = median([r.span for r in runs])
                ratios = sorted(best / r.span for r in runs)
                waves = best / args.latency
                rows.append(
                    f"| {c} | {n} | {k:g} | {wall:.2f} | {best:.2f} | **{best / wall:.3f}** "
                    f"({ratios[0]:.3f}–{ratios[-1]:.3f}) | {(wall - best) / wall:.1%} | "
                    f"{(wall - best) / waves * 1000:.1f} | {n / wall:.2f} | {best / floor:.3f} | "
                    f"{max(r.peak_in_flight for r in runs)} | {median([r.server_cpu for r in runs]):.2f} | "
                    f"{median([r.cpu for r in runs]):.2f} | {median([r.process for r in runs]):.2f} |")
            variants = variants_of(args.before, args.after, work)
            whole = process_rows(fake, sizes, args.process_concurrency, d, args.latency, args.repeat, work, variants)
            team_rows: list[str] = []
            if not args.no_teams:
                for team in TEAMS:
                    r = batch(fake, 32, 32, work, team=team)
                    td = depth(team)
                    best = ideal(32, r.calls_per_sample, td, 32, args.latency)
                    team_rows.append(f"| {team} | {r.calls_per_sample:g} | {td} | {r.span:.2f} | {best:.2f} | "
                                     f"{best / r.span:.3f} |")
        finally:
            fake.close()
        print(f"### Against the ideal at {args.latency * 1000:.0f} ms per call (default team: k = 8 calls, "
              f"critical path d = {d})\n")
        print("ideal = max(ceil(N x k / C), d x ceil(N / C)) x L, for N samples with C samples and C calls in "
              "flight.\n")
        if rows:
            print("wall = the fake server's first request in to last reply out (start-up and shutdown not "
                  f"counted; the process column has them); median of {args.repeat} runs, the range in brackets. "
                  "Overhead = (wall - ideal) / wall. Bare client = the same call graph made by a bare aiohttp "
                  "client (no judge): what this machine and fake server allow.\n")
            print("| C | N | k | wall s | ideal s | ideal/wall | overhead | ms added per wave | samples/s "
                  "| bare client ideal/wall | peak calls in flight | fake server CPU s | sejury CPU s | process s |")
            print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
            print("\n".join(rows))
        if whole:
            print(f"\n#### The whole process ({args.latency * 1000:.0f} ms per call)\n")
            print("process = from before `sejury batch` starts to its exit, as a user waits for it (start-up, the "
                  "first request and shutdown included); start-up = from before the process starts to the fake "
                  f"server's first request; wall = first request in to last reply out. Min / **median** / max of "
                  f"{args.repeat} runs (wall and ideal/wall: medians).\n")
            for v in variants:
                if v.name:
                    print(f"- {v.name}: {v.env.get('PYTHONPATH', 'the installed sejury')}")
            named = any(v.name for v in variants)
            print(f"| C | N |{' variant |' if named else ''} ideal s | process s | ideal/process | start-up s "
                  "| wall s | ideal/wall |")
            print(f"| --- | --- |{' --- |' if named else ''} --- | --- | --- | --- | --- | --- |")
            print("\n".join(whole))
        if team_rows:
            print(f"\n### Calls per sample per team (32 samples, concurrency 32, {args.latency * 1000:.0f} ms)\n")
            print("| team | calls/sample | critical path (calls) | wall s | ideal s | ideal/wall |")
            print("| --- | --- | --- | --- | --- | --- |")
            print("\n".join(team_rows))
        print(f"\nload {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
