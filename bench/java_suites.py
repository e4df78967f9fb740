"""The Java harness's object suites, program by program: which units each program passes.

    .venv/bin/python bench/java_suites.py                          # the installed sejury
    PYTHONPATH=/tmp/wt .venv/bin/python bench/java_suites.py       # a worktree of another commit

The suites and programs are those of ``tests/execution/test_java_objects.py`` and
``test_java_hostile.py`` (read from this checkout's tests whatever sejury is imported), run through
``run_suite`` on the real Docker sandbox; one markdown row per program: the units passed, and
``P``/``.`` per unit.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "execution"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parent.parent))  # (``tests.helpers``; after any PYTHONPATH's sejury)

import test_java_hostile as h
import test_java_objects as t
from _suites import table

# the right program of OWN_VALUES with add off by one and reverse keeping the order: a plain wrong one
PLAIN_WRONG = t.OWN_VALUES.replace("new Money(cents + o.cents)", "new Money(cents + o.cents + 1)").replace(
    "r = new Node(h.val, r)", "r = new Node(h.val, null)")
# HumanEval-X's form: each unit makes a ``Solution`` (a class of no fields) and calls it
SOLUTION = "class Solution {\n    public long addOne(long x) { return x + 1; }\n}\n"
SOLUTION_TESTS = "class SolTest {\n" + "".join(
    f"    @Test void t{i}() {{ assertEquals({i + 1}L, new Solution().addOne({i}L)); }}\n" for i in range(40)) + "}\n"
ROWS = [("SOLUTION", "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n"
         + SOLUTION_TESTS, [("right", SOLUTION)]),
        ("SHOP", t.TESTS, [("right", t.RIGHT), ("wrong", t.WRONG)]),
        ("MIRROR", t.MIRROR_TESTS, [("right", t.OWN_VALUES), ("mirror (hostile)", t.MIRROR),
                                    ("plain wrong", PLAIN_WRONG)]),
        ("OWN_VALUES", t.OWN_VALUES_TESTS, [("right", t.OWN_VALUES), ("plain wrong", PLAIN_WRONG)]),
        ("EQUALS", h.EQUALS_TESTS, [("wrong equals (hostile)", h.EQUALS)]),
        ("DATA_EQUALS", h.DATA_EQUALS_TESTS, [("wrong equals and hashCode", h.DATA_EQUALS)]),
        ("DATA_KINDS", h.DATA_KINDS_TESTS, [("wrong kinds (hostile)", h.DATA_KINDS)]),
        ("DATA_ERASURE", h.DATA_ERASURE_TESTS, [("a Long for an Integer (hostile)", h.DATA_ERASURE)])]


async def main() -> None:
    await table("java", ROWS)


if __name__ == "__main__":
    asyncio.run(main())
