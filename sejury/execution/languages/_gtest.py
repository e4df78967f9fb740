"""C++ tests in GoogleTest's form: ``TEST(Suite, Name) { ... EXPECT_EQ(f(2), 4); }``.

Each check of a ``TEST`` body (an ``EXPECT_*`` or ``ASSERT_*`` assertion) is a unit: the body's
statements before it, then the check, in a block named ``// Suite.Name`` (``test_name``), as JUnit
methods are split.  The assertions are the checker's own macros (``sealed_cpp/gtest.hpp``, no GoogleTest
library in the sandbox): each failure throws with what it compared, shown as the recorder shows values
(``EXPECT_EQ(digits(-40), 2): 3 != 2``); a message streamed after a check (``<< "why"``) is left
out.  ``EXPECT_*`` and ``ASSERT_*`` are alike here, since every check is a unit of its own.

Before, such tests gave no unit that compiled (``gtest/gtest.h`` is not in the sandbox, and the
``TEST`` blocks were read as statements of a main): a C++ developer's own tests were no evidence.
A ``TEST_F(Fixture, Name)`` check runs in a class derived from the fixture (the file's own, kept at
the checker's file scope by ``_cpp_scope``), as GoogleTest runs it: a new fixture per check,
``SetUpTestSuite`` once before the suite's first, ``SetUp`` before, ``TearDown`` after (after a
failure too).  A ``TEST_P`` test runs once per value its ``INSTANTIATE_TEST_SUITE_P`` lists
(``Values``, ``Range``, ``Bool``, ``ValuesIn`` of a braced list or of the file's variable), each
check of each row a unit named ``Suite.Name[row]``, and ``GetParam()`` that row's value.  A call
of a helper of the file that checks (``void expect_sorted(...) { EXPECT_LE(...); }``) is a check.
Until ``RUNNERS_VERSION`` 51 ``TEST_F`` and ``TEST_P`` tests were left out.  Not read: other
generators (``Combine``, ``ValuesIn`` of a function's result), typed tests, death tests, mocks.
gMock's common matchers (``EXPECT_THAT(v, ElementsAre(1, 2))``) are ``gtest.hpp``'s too.
"""

from __future__ import annotations

import re
import textwrap

from sejury.execution.languages import _clike
from sejury.execution.languages.base import Copies

TEST = re.compile(r"^[ \t]*TEST(?P<kind>_F|_P)?\s*\(\s*(?P<suite>\w+)\s*,\s*(?P<name>\w+)\s*\)\s*\{", re.M)
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


def _in_fixture(unit: str, fixture: str, value: str | None) -> str:
    """A unit of a ``TEST_F``/``TEST_P`` test run inside its fixture (``sealed_cpp/gtest.hpp``'s
    ``sejury_fixture_open``/``FIXTURE_CLOSE``), with ``value`` as ``GetParam()``."""
    param = ([f"const {fixture}::ParamType sejury_value = {value};", f"{fixture}::sejury_param = &sejury_value;"]
             if value is not None else [])
    opener = f"struct sejury_test : {fixture} {{ sejury_fixture_open({fixture})"
    return _clike.within(unit, [*param, opener], _clike.FIXTURE_CLOSE)


def units(tests: str, copies: Copies, checking: frozenset[str] = frozenset(),
          rows: dict[str, list[str]] | None = None) -> list[str]:
    """One unit per check of each ``TEST``: its statements before the check, then the check; a
    call of one of the file's ``checking`` helpers is a check; ``TEST_P`` once per row of ``rows``."""
    check = _clike.checks_or_calls(_CHECK, checking)
    out: list[str] = []
    for m in TEST.finditer(tests):
        end = _clike.closing(tests, m.end() - 1)
        if end < 0:
            continue
        body = _CONTINUED.sub(") <<", textwrap.dedent(tests[m.end():end]))  # a message on the next line
        suite, name, kind = m.group("suite"), m.group("name"), m.group("kind")
        if kind is None:
            out += _clike.titled_units(f"{suite}.{name}", [], body, check, copies, _without_message)
        elif kind == "_F":
            out += [_in_fixture(u, suite, None)
                    for u in _clike.titled_units(f"{suite}.{name}", [], body, check, copies, _without_message)]
        else:
            for k, value in enumerate((rows or {}).get(suite, [])):
                out += [_in_fixture(u, suite, value) for u in
                        _clike.titled_units(f"{suite}.{name}[{k}]", [], body, check, copies, _without_message)]
    return out
