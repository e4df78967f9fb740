"""Sandbox benchmark: latency per execution (median, p90), cold one-shot containers versus the warm
pool, per language, and executions per second at several concurrencies.  Prints tables.

    .venv/bin/python bench/sandbox_bench.py [--runs 30]

Needs the Docker engine and the sejury-sandbox image (scripts/setup-docker.sh).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: tests is a package

from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox
from tests.execution.test_runners import CASES

TRIVIAL = ({"t.py": "print(sum(range(100)))"}, "python3 t.py")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def row(name: str, xs: list[float], goal: str = "") -> str:
    ms = [x * 1000 for x in xs]
    return f"| {name} | {len(xs)} | {statistics.median(ms):.0f} | {pct(ms, 0.9):.0f} | {min(ms):.0f} | {goal} |"


async def timed_runs(sb: DockerSandbox, n: int, files: dict[str, str], cmd: str) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        res = await sb.run(files, cmd, timeout=30)
        out.append(time.perf_counter() - t)
        assert res.status == "ok", res
    return out


async def main(runs: int) -> None:
    print("## Latency of one execution, milliseconds (wall, host side: write files + run + read back)\n")
    print("| what | n | p50 | p90 | min | goal |")
    print("| --- | --- | --- | --- | --- | --- |")
    warm = DockerSandbox(size=1)
    await warm.warm_up()
    await timed_runs(warm, 3, *TRIVIAL)  # warm-up
    w = await timed_runs(warm, runs, *TRIVIAL)
    print(row("python, warm pool", w, "p50 <= 70"))
    cold = DockerSandbox(size=1, mode="oneshot")
    c = await timed_runs(cold, max(5, runs // 2), *TRIVIAL)
    print(row("python, cold (new container per run)", c, "p50 <= 300"))
    await cold.close()
    for lang, (good, _bad, tests) in CASES.items():
        suite = split_tests(lang, tests)
        await run_suite(warm, lang, good, suite)  # warm caches (Go build cache, page cache)
        xs = []
        for _ in range(max(3, runs // 6)):
            t = time.perf_counter()
            rep = await run_suite(warm, lang, good, suite)
            xs.append(time.perf_counter() - t)
            assert rep.loaded and all(rep.passed), (lang, rep)
        print(row(f"{lang}: 3 tests, warm (compile + run)", xs))
    await warm.close()

    print("\n## Throughput, trivial Python executions per second (warm pool sized to the concurrency)\n")
    print("| concurrency | executions | seconds | exec/s | vs concurrency 1 |")
    print("| --- | --- | --- | --- | --- |")
    base = None
    for conc in (1, 2, 4, 8):
        sb = DockerSandbox(size=conc)
        await sb.warm_up()
        n = runs * 2
        t = time.perf_counter()
        results = await asyncio.gather(*(sb.run(*TRIVIAL, timeout=30) for _ in range(n)))
        secs = time.perf_counter() - t
        assert all(r.status == "ok" for r in results)
        rate = n / secs
        base = base or rate
        print(f"| {conc} | {n} | {secs:.2f} | {rate:.1f} | {rate / base:.2f}x |")
        await sb.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    asyncio.run(main(ap.parse_args().runs))
