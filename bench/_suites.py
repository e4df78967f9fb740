"""The object suites' table, program by program (``js_suites.py``, ``java_suites.py``): each suite's
units split once, each program run on it through ``run_suite`` on the real Docker sandbox; one
markdown row per program: the units passed, ``P``/``.`` per unit, and the run's seconds (the
sandbox's containers warm)."""

from __future__ import annotations

import time

import sejury
from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

Rows = list[tuple[str, str, list[tuple[str, str]]]]  # suite name, its tests, (program label, program)


async def table(language: str, rows: Rows) -> None:
    sandbox = DockerSandbox()
    print(f"sejury imported from {sejury.__file__}\n")
    print("| suite | program | passed | units | s |\n| --- | --- | --- | --- | --- |")
    for name, tests, programs in rows:
        suite = split_tests(language, tests, programs[0][1])
        for label, program in programs:
            start = time.perf_counter()
            run = await run_suite(sandbox, language, program, suite, timeout=120)
            seconds = time.perf_counter() - start
            units = "".join("P" if ok else "." for ok in run.passed)
            print(f"| {name} | {label} | {sum(run.passed)}/{len(run.passed)} | `{units}` | {seconds:.1f} |")
