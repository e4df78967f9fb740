"""The Go harness's suites of the program's own types, program by program: which units each passes.

    .venv/bin/python bench/go_suites.py                          # the installed sejury
    PYTHONPATH=/tmp/wt .venv/bin/python bench/go_suites.py       # a worktree of another commit

The suites and programs are those of ``tests/execution/test_go_types.py`` (read from this checkout's
tests whatever sejury is imported) and the tamper suite's Go sample (``test_tamper.py``), run through
``run_suite`` on the real Docker sandbox; one markdown row per program: the units passed, ``P``/``.``
per unit, and the run's seconds.  ``FUNCS`` is HumanEval-X's form (functions of plain values only),
40 units, for the time the codec takes where the program has no type of its own.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "execution"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parent.parent))  # (``tests.helpers``; after any PYTHONPATH's sejury)

import test_go_types as g
import test_tamper as t
from _suites import table

FUNCS = "package main\n\nfunc AddOne(xs []int) []int {\n\tout := []int{}\n\tfor _, x := range xs {\n" \
        "\t\tout = append(out, x+1)\n\t}\n\treturn out\n}\n"
FUNCS_TESTS = "package main\n\nimport \"testing\"\n\nfunc TestAddOne(t *testing.T) {\n" + "".join(
    f"\tif got := AddOne([]int{{{i}, {i + 1}}}); got[1] != {i + 2} {{\n\t\tt.Errorf(\"got %v\", got)\n\t}}\n"
    for i in range(40)) + "}\n"
PANIC = "package main\n\nfunc Add(a, b int) int { return a - b }\n\nfunc panic(v interface{}) {}\n"
ROWS = [("FUNCS", FUNCS_TESTS, [("right", FUNCS)]),
        ("SHAPES", g.SHAPES_TESTS, [("right", g.SHAPES), ("wrong", g.SHAPES_WRONG)]),
        ("COUNTER", g.COUNTER_TESTS, [("right", g.COUNTER)]),
        ("SHARING", g.SHARING_TESTS, [("right", g.SHARING),
                                      ("wrong (a clone that is its original, a sort of its input)", g.SHARING_WRONG)]),
        ("POINTS", g.POINTS_TESTS, [("JSON lies (hostile)", g.LYING_POINTS)]),
        ("BUILTINS", g.BUILTINS_TESTS, [("func panic (hostile)", PANIC)]),
        ("RUNS", t.GO_OWN_TESTS, [("plain wrong", "package main\n\n" + t.GO_WRONG),
                                  ("patch_builtins (hostile)", "package main\n\n" + t.GO_HACKS["patch_builtins"])])]


async def main() -> None:
    await table("go", ROWS)


if __name__ == "__main__":
    asyncio.run(main())
