"""A JUnit test class's own helper methods: ``private void check(int n, int want) { assertEquals(...); }``
called by its ``@Test`` methods, ``private static List<Integer> sample()``, a nested class.

A class that has such methods runs each of its units in an instance of its own members: the unit is
an anonymous class holding the test class's fields and helper methods as declared, and a method
``sejuryRun`` with the set-up, the test's statements before the check, then the check
(``in_instance``).  A call of a helper that checks (``assert``, ``fail(``, ``throw``) is a check of
its own, a unit.  A class without helper methods keeps its units as before (``java._fixture``: the
fields as local variables).  Until ``RUNNERS_VERSION`` 51 the helpers were dropped: a test that
called one did not compile, and a test whose checks were all in a helper gave no unit at all.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

from sejury.execution.languages import _clike

# not a helper: the tests and the fixture's methods (the set-up ones are read by ``java._fixture``)
_NOT_HELPERS = {"@Test", "@ParameterizedTest", "@RepeatedTest", "@TestFactory", "@TestTemplate", "@BeforeEach",
                "@Before", "@BeforeAll", "@BeforeClass", "@AfterEach", "@After", "@AfterAll", "@AfterClass",
                "@Nested"}  # (a nested class's tests are units of their own: ``nested_classes``)
_METHOD = re.compile(r"^(?:[\w<>\[\],.?\s]+?\s)?(?P<name>\w+)\s*\([^)]*\)\s*(?:throws\s+[\w\s,.]+)?\{", re.S)


@dataclass
class Members:
    """A test class's fields and helper methods, as declared."""

    declared: list[str] = field(default_factory=list)
    checking: set[str] = field(default_factory=set)  # helper methods that check: each call is a check
    helpers: bool = False  # the class has a helper method (else its units stay as they were)


def members(name: str, body: str, check: re.Pattern[str]) -> Members:
    """The members of the test class ``name``'s ``body`` that are neither tests nor fixture methods
    (its constructor is set-up, as JUnit makes an instance per test: ``java._fixture``)."""
    out = Members()
    pending: list[str] = []
    for stmt in _clike.balanced_statements(textwrap.dedent(body)):
        if stmt.startswith("@"):
            pending.append(stmt.split("(")[0].strip())
            continue
        annotations, pending = pending, []
        if set(annotations) & _NOT_HELPERS:
            continue
        method = _METHOD.match(stmt) if stmt.endswith("}") else None
        if method is not None and method.group("name") == name:
            continue  # the constructor
        if method is not None and not re.match(r"(?:\w+\s+)*(?:class|interface|enum|record)\s", stmt):
            out.helpers = True
            body_at = method.end()
            if check.search(stmt[body_at:]):
                out.checking.add(method.group("name"))
            # a helper that catches ``AssertionError`` (to print it and go on) would hide every failure
            stmt = re.sub(r"catch\s*\(\s*(?:java\.lang\.)?AssertionError\b", "catch (SejuryAssert.Never", stmt)
        out.declared.append(stmt)
    return out


def in_instance(unit: str, declared: list[str]) -> str:
    """A unit of ``_clike.titled_units`` run in an instance of the test class's ``declared``
    members: ``{ // Title``, ``new Object() {`` the members ``void sejuryRun() throws Throwable {``
    the unit's statements, then ``sejuryRun``'s and the anonymous class's braces and the call
    (``_clike.INSTANCE_CLOSE``), ``}``."""
    return _clike.within(unit, ["new Object() {", *declared, "void sejuryRun() throws Throwable {"],
                         _clike.INSTANCE_CLOSE)


_NESTED = re.compile(r"@Nested\b(?:\s*@\w+(?:\([^)]*\))?)*\s*"
                     r"(?:(?:public|protected|private|final)\s+)*class\s+(\w+)[^{;]*\{")


@dataclass
class Nested:
    """A JUnit 5 ``@Nested`` class: its name and its body's place in the test text."""

    name: str
    start: int
    end: int
    body: str


def nested_classes(tests: str) -> list[Nested]:
    """The ``@Nested`` classes of ``tests``, outer before inner.  A test inside one runs after the outer
    class's fixture and each enclosing nested class's, outer to inner, as JUnit runs it; until
    ``RUNNERS_VERSION`` 52 it got the outer class's only."""
    found = []
    for m, body in zip(_NESTED.finditer(tests), _clike.block_bodies(tests, _NESTED), strict=True):
        found.append(Nested(m.group(1), m.end(), m.end() + len(body), body))
    return found


def enclosing(classes: list[Nested], at: int) -> list[Nested]:
    """The nested classes around position ``at``, outer first."""
    return sorted((c for c in classes if c.start <= at < c.end), key=lambda c: c.start)

