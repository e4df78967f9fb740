"""C++ tests in GoogleTest's form: ``TEST(Suite, Name) { ... EXPECT_EQ(f(2), 4); }``.

Each check of a ``TEST`` body (an ``EXPECT_*`` or ``ASSERT_*`` assertion) is a unit: the body's
statements before it, then the check, in a block named ``// Suite.Name`` (``test_name``), as JUnit
methods are split.  The assertions are the checker's own macros (``sealed_cpp/gtest.hpp``, no GoogleTest
library in the sandbox): each failure throws with what it compared, shown as the recorder shows values
(``EXPECT_EQ(digits(-40), 2): 3 != 2``); a message streamed after a check (``<< "why"``) is left
out.  ``EXPECT_*`` and ``ASSERT_*`` are alike here, since every check is a unit of its own.

Before, such tests gave no unit that compiled (``gtest/gtest.h`` is not in the sandbox, and the
``TEST`` blocks were read as statements of a main): a C++ developer's own tests were no evidence.
Not read: ``TEST_F``'s fixtures and ``TEST_P``'s parameters (those tests are left out), helper
functions and globals of the test file, death tests, matchers (``EXPECT_THAT``).
"""

from __future__ import annotations

import re
import textwrap

from sejury.execution.languages import _clike
from sejury.execution.languages.base import Copies

TEST = re.compile(r"^[ \t]*TEST\s*\(\s*(?P<suite>\w+)\s*,\s*(?P<name>\w+)\s*\)\s*\{", re.M)
_CHECK = re.compile(r"\b(?:EXPECT|ASSERT)_[A-Z_]+\s*\(")
_CONTINUED = re.compile(r"\)[ \t]*\r?\n\s*<<")

def uses_gtest(tests: str) -> bool:
    return TEST.search(tests) is not None


def _without_message(stmt: str) -> str:
    """A check without the message streamed after it (``EXPECT_EQ(a, b) << "why";``); a statement
    holding a check (a loop of checks) as it is."""
    m = _CHECK.match(stmt)
    if m is None:
        return stmt
    end = _clike.closing(stmt, m.end() - 1)
    return stmt if end < 0 else stmt[:end + 1] + ";"


def units(tests: str, copies: Copies) -> list[str]:
    """One unit per check of each ``TEST``: its statements before the check, then the check."""
    out: list[str] = []
    for m in TEST.finditer(tests):
        end = _clike.closing(tests, m.end() - 1)
        if end >= 0:
            body = _CONTINUED.sub(") <<", textwrap.dedent(tests[m.end():end]))  # a message on the next line
            out += _clike.titled_units(f"{m.group('suite')}.{m.group('name')}", [], body, _CHECK, copies,
                                       _without_message)
    return out
