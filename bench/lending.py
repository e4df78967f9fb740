"""The tests' mocks, patches and callbacks, lent to the program (``sealed_python/lending.pyt``,
``sealed_python/fixtures.pyt``, ``sealed_js/``): for each suite of
``tests/execution/test_python_patches.py``, ``test_pytest_fixtures.py``, ``test_python_classes.py`` and
``test_js_callbacks.py``,
how many tests its right program and its wrong program pass; then what a lent call costs (a Python
program calling a test's lambda ``n`` times in one test).  No model; the Docker sandbox.

    .venv/bin/python bench/lending.py            # this checkout
    cd /tmp/wt-before && PYTHONPATH=/tmp/wt-before /work/main/.venv/bin/python /work/main/bench/lending.py

(the second: another commit's harness, from a worktree of it; the suites are always this checkout's).
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

from sejury.execution.runner import RUNNERS_VERSION, run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests" / "execution"
APPLY_N = "def apply_n(f, n):\n    s = 0\n    for i in range(n):\n        s += f(i)\n    return s\n"


def module(name: str) -> ModuleType:
    if str(ROOT) not in sys.path:  # (the suites import the tests' helpers), after any checkout given first
        sys.path.append(str(ROOT))
    spec = importlib.util.spec_from_file_location(name, TESTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    found = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(found)
    return found


async def main() -> None:
    p, j, f = module("test_python_patches"), module("test_js_callbacks"), module("test_pytest_fixtures")
    c = module("test_python_classes")
    cases = [("python", "patches and mocks", p.TESTS, p.RIGHT, p.WRONG),
             ("python", "a class's patch, a setUp patcher, stacked, pytest", p.FORMS, p.FORMS_RIGHT, p.FORMS_WRONG),
             ("python", "objects the tests define", p.FAKE, p.FAKE_RIGHT, p.FAKE_WRONG),
             ("python", "pytest's monkeypatch", p.MONKEYPATCH, p.MONKEYPATCH_RIGHT, p.MONKEYPATCH_WRONG),
             ("python", "printed output captured", p.PRINTED, p.PRINTED_RIGHT, p.PRINTED_WRONG),
             ("python", "log records: assertLogs, caplog", p.LOGGED, p.LOGGED_RIGHT, p.LOGGED_WRONG),
             ("python", "pytest's fixtures, mocker, test classes", f.TESTS, f.RIGHT, f.WRONG),
             ("python", "fixtures' teardowns", f.TEARDOWNS, f.CONN, f.ALTERS),
             ("python", "async tests, the program's coroutines, AsyncMock", f.ASYNC_TESTS, f.ASYNC_RIGHT,
              f.ASYNC_WRONG),
             ("python", "a program that dies when a mocker patch is undone", f.REPORTS, f.REPORTS_RIGHT,
              f.DIES_ON_UNDO),
             ("python", "the program's classes: attributes, isinstance, patches, spies", c.TESTS, c.RIGHT, c.WRONG),
             ("javascript", "callbacks and jest.fn", j.TESTS, j.RIGHT, j.WRONG),
             ("javascript", "the console's spies", j.LOGGED, j.LOGGED_RIGHT, j.LOGGED_WRONG)]
    sandbox = DockerSandbox(size=1)
    try:
        print(f"RUNNERS_VERSION {RUNNERS_VERSION}\n")
        print("| language | suite | tests | right passes | wrong passes |\n| --- | --- | --- | --- | --- |")
        for lang, name, tests, right, wrong in cases:
            suite = split_tests(lang, tests, right)
            a = await run_suite(sandbox, lang, right, suite, timeout=60)
            b = await run_suite(sandbox, lang, wrong, suite, timeout=60)
            print(f"| {lang} | {name} | {len(suite.units)} | {sum(a.passed)} | {sum(b.passed)} |")
        print("\n| calls of the test's lambda | passed | run s | wall s |\n| --- | --- | --- | --- |")
        for n in (0, 0, 1000, 10000, 50000):
            suite = split_tests("python", f"def test_n():\n    assert apply_n(lambda x: 1, {n}) == {n}\n", APPLY_N)
            t0 = time.monotonic()
            run = await run_suite(sandbox, "python", APPLY_N, suite, timeout=120)
            print(f"| {n} | {run.passed} | {run.seconds:.2f} | {time.monotonic() - t0:.2f} |")
    finally:
        await sandbox.close()


if __name__ == "__main__":
    asyncio.run(main())
