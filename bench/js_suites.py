"""The JavaScript harness's object suites, program by program: which units each program passes.

    .venv/bin/python bench/js_suites.py                          # the installed sejury
    PYTHONPATH=/tmp/wt .venv/bin/python bench/js_suites.py       # a worktree of another commit

The suites and programs are those of ``tests/execution/test_js_objects.py`` (read from this
checkout's tests whatever sejury is imported), run through ``run_suite`` on the real Docker sandbox;
one markdown row per program: the units passed, and ``P``/``.`` per unit.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "execution"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import test_js_objects as t
from _suites import table

PURE = t.MADE_RIGHT.replace("  toString() { return `${this.val}`; }\n", "")
PURE_WRONG = PURE.replace("let prev = null; while", "let prev = null; if (head) head = head.next; while")
ROWS = [("CYCLES", t.CYCLES, [("right", t.CYCLES_RIGHT), ("wrong", t.CYCLES_WRONG)]),
        ("MADE", t.MADE, [("right, its ListNode holds a method", t.MADE_RIGHT),
                          ("mirror (hostile)", t.MADE_MIRROR),
                          ("one object, its constructor's (hostile)", t.MADE_ONE),
                          ("every node reads 0 (hostile)", t.MADE_ZERO),
                          ("right, its ListNode a data class", PURE),
                          ("wrong, its ListNode a data class", PURE_WRONG)]),
        ("REFERENCES", t.REFERENCES, [("hostile", t.REFERENCES_HOSTILE)]),
        ("IDENTITY", t.IDENTITY, [("right, its ListNode a data class", t.IDENTITY_RIGHT),
                                  ("wrong", t.IDENTITY_WRONG)]),
        ("LEETCODE", t.LEETCODE, [("right", t.LEETCODE_RIGHT), ("wrong", t.LEETCODE_WRONG)]),
        ("TESTS", t.TESTS, [("right", t.PROGRAM), ("wrong", t.WRONG)]),
        ("LEAKS", t.LEAKS, [("right", t.LEAKS_RIGHT), ("wrong", t.LEAKS_WRONG)])]


async def main() -> None:
    await table("javascript", ROWS)


if __name__ == "__main__":
    asyncio.run(main())
