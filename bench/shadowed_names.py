"""Programs that define a name the tests mean otherwise (a builtin, a module, the tests' own helper),
program by program: which units each passes.

    .venv/bin/python bench/shadowed_names.py                          # the installed sejury
    PYTHONPATH=/tmp/wt .venv/bin/python bench/shadowed_names.py       # a worktree of another commit

The suites and programs are those of ``tests/execution/test_shadowed_names.py`` (read from this
checkout's tests whatever sejury is imported), run through ``run_suite`` on the real Docker sandbox.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "execution"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parent.parent))  # (``tests.helpers``; after any PYTHONPATH's sejury)

import test_shadowed_names as s
from _suites import table


async def main() -> None:
    for language, suites, programs in (
            ("python", s.PY_TESTS, [("right", s.PY_RIGHT), ("plain wrong", s.PY_WRONG), ("shadows", s.PY_SHADOWS)]),
            ("cpp", s.CPP_TESTS, [("right", s.CPP_RIGHT), ("plain wrong", s.CPP_WRONG), ("shadows", s.CPP_SHADOWS)])):
        print(f"\n{language}\n")
        await table(language, [(form, tests, programs) for form, tests in sorted(suites.items())])


if __name__ == "__main__":
    asyncio.run(main())
