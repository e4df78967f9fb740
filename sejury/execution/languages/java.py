"""Java: javac compiles the program, then a generated main runs each unit in its own try block.

Here: splitting the tests into units, and the ``Language``.  Beside it: the harness and its sealed
form (``_java_harness.py``), and the repairs of the slips models make, read against the program
(``_java_repairs.py``); their public names are importable from here too."""

from __future__ import annotations

import re
import textwrap

from sejury.execution.languages import _adapt, _clike, _dummies, _junit_class, _junit_params, _literals, _stdio
from sejury.execution.languages._java_harness import ASSERTIONS, CLASSPATH, harness, sealed_harness
from sejury.execution.languages._java_repairs import (
    NOT_TYPES,
    PACKAGE,
    Method,
    fix_calls,
    methods_of,
    returns_of,
    value_equality,
    wrap_list_arguments,
)
from sejury.execution.languages._java_stubs import stubs
from sejury.execution.languages.base import Copies, Language, Suite

__all__ = ["ASSERTIONS", "CLASSPATH", "LANGUAGE", "Method", "adapt_reference", "call", "fix_calls", "harness",
           "methods_of", "returns_of", "sealed_harness", "split", "stubs", "value_equality", "wrap_list_arguments"]

_DEFINES = re.compile(r"^(?:public\s+|final\s+|abstract\s+)*(?:class|interface|record)\s+(\w+)")
_ENTRY = re.compile(r"static\s+void\s+main\s*\([^)]*\)\s*(?:throws\s+[\w\s,.]+)?\{")


_CHECK = re.compile(r"assert|\bfail\(|throw|AssertionError")
# a @Test method, other annotations after it (``@DisplayName("...")``)
_JUNIT_METHOD = re.compile(r"(?:@Test\s+)(?:@\w+(?:\([^)]*\))?\s+)*(?:public\s+|protected\s+)?"
                           r"void\s+(?P<name>\w+)\s*\(\s*\)\s*(?:throws\s+[\w\s,.]+)?\{")


def split(tests: str, names: set[str]) -> Suite:
    """Statements of a main (or loose statements), one unit per check; JUnit test classes (what
    models write whatever the prompt says): one unit per assertion of each ``@Test`` method.  A
    text cut off mid-statement (the reply's token limit) loses its incomplete tail."""
    tests = _clike.complete_part(tests)
    junit = _clike.block_bodies(tests, _JUNIT_METHOD)
    rows = _junit_params.parameterized(tests) if "@ParameterizedTest" in tests else []
    if junit or rows:  # one unit per assertion: the method's statements before it, then the assertion, as a block
        units: list[str] = []
        test_class = _test_class(tests)
        fields, set_up = _fixture(*test_class)  # the test class's fields and set-up, first in every unit
        own = _junit_class.members(*test_class, _CHECK)  # its helper methods: units run in an instance
        check = _clike.checks_or_calls(_CHECK, own.checking)
        members = "".join(own.declared)  # what each unit run in an instance repeats
        copies = Copies()
        cls = next((m.group(1) for m in re.finditer(r"\bclass\s+(\w+)", tests)), "Test")
        found = list(_JUNIT_METHOD.finditer(tests))
        nested = _junit_class.nested_classes(tests) if "@Nested" in tests else []
        # (the test's name (``test_name``), the parameters it runs with, its statements, the @Nested
        # classes around it: their fields and set-up come after the outer class's)
        runs: list[tuple[str, list[str], str, list[_junit_class.Nested]]] = []
        for k, body in enumerate(junit):
            around = _junit_class.enclosing(nested, found[k].start()) if k < len(found) else []
            title = (".".join([cls, *(c.name for c in around), found[k].group("name")]) if k < len(found)
                     else "a @Test method")
            runs.append((title, [], body, around))
        runs += [(f"{cls}.{p.name}[{i}]", row, p.body, []) for p in rows for i, row in p.rows]
        for title, row, body, around in runs:
            inner = [_fixture(c.name, c.body) for c in around]
            prepared = [*set_up, *(x for _, steps in inner for x in steps)]
            declared = [*fields, *(x for more, _ in inner for x in more)]
            if own.helpers:  # the class's fields and helpers as its members, the method's own shadowing them
                locals_ = [d for _, d in declared[len(fields):]]
                units += [_junit_class.in_instance(u, own.declared) for u in _clike.titled_units(
                    title, [*locals_, *prepared, *row], textwrap.dedent(body), check, copies) if copies.take(members)]
                continue
            # a field the method (or a nested class) declares again, or a parameter of its, is theirs
            before = [d for k, (name, d) in enumerate(declared) if not re.search(
                rf"[\w>\]]\s+{name}\s*[=;:]", "\n".join([*(x for _, x in declared[k + 1:]), *row, body]))]
            units += _clike.titled_units(title, [*before, *prepared, *row], textwrap.dedent(body), _CHECK, copies)
        return Suite("", units)
    helpers = _helpers(tests)
    if helpers and _clike.block_bodies(tests, _ENTRY):
        return _split_with_helpers(tests, helpers)
    return _clike.split_c_like(tests, names, entry=_ENTRY, defines=_DEFINES, check=_CHECK)


def test_name(unit: str) -> str:
    """A JUnit test's unit as a reader names it: ``SolutionTest.adds: assertEquals(3, s.add(1, 2));``."""
    return _clike.titled_name(unit)


_TEST_CLASS = re.compile(r"\bclass\s+(\w+)\s*(?:extends\s+[\w.<>]+\s*)?\{")
_FIELD = re.compile(r"^(?:(?:private|public|protected|static|final|transient|volatile)\s+)*"
                    r"(?P<decl>(?:final\s+)?[\w.<>\[\],?\s]+?\s+\w+\s*(?:=[^;]*)?;)$", re.S)
_MODIFIERS = re.compile(r"\b(?:private|public|protected|static|transient|volatile)\s+")
_SET_UP = ("@BeforeEach", "@Before", "@BeforeAll", "@BeforeClass")


def _test_class(tests: str) -> tuple[str, str]:
    """The name and body of the class holding the ``@Test`` (or ``@ParameterizedTest``) methods."""
    for m in _TEST_CLASS.finditer(tests):
        (body,) = _clike.block_bodies(tests[m.start():], _TEST_CLASS)[:1]
        if re.search(r"@(?:Parameterized)?Test\b", body):
            return m.group(1), body
    return "", ""


def _fixture(cls: str, body: str) -> tuple[list[tuple[str, str]], list[str]]:
    """A JUnit test class's fixture, as statements of each unit: its fields as local variables (``private
    Solution s;``, ``private final int base = 2;``) then the bodies of its constructor and its
    ``@BeforeAll``/``@BeforeEach`` (JUnit 4: ``@BeforeClass``/``@Before``) methods, ``this.`` dropped.
    Each unit is a block of the tests' main, where a field it used was not declared and the test did
    not compile (every test of such a class was dropped).  ``cls``, ``body``: ``_test_class``."""
    constructor = re.compile(rf"(?:(?:public|protected|private)\s+)?{re.escape(cls)}\s*\(\s*\)") if cls else None
    fields: list[tuple[str, str]] = []  # (name, its declaration as a local variable)
    set_up: list[str] = []
    pending: list[str] = []
    for stmt in _clike.balanced_statements(textwrap.dedent(body)):
        if stmt.startswith("@"):
            pending.append(stmt.split("(")[0])
            continue
        if not stmt.endswith("}") and (m := _FIELD.match(stmt)) and "(" not in stmt.split("=")[0]:
            decl = _MODIFIERS.sub("", m.group("decl"))
            # the name: the last word before the initializer (a regex search for ``\w+\s*[=;]`` took
            # minutes on a field holding a long string)
            fields.append((re.findall(r"\w+", decl.split("=", 1)[0])[-1], decl))
        elif (any(a in _SET_UP for a in pending) or (constructor and constructor.match(stmt))) and stmt.endswith("}"):
            for inner in _clike.block_bodies(stmt, re.compile(r"\)\s*(?:throws\s+[\w\s,.]+)?\{")):
                set_up.extend(re.sub(r"\bthis\.", "", x) for x in _clike.balanced_statements(textwrap.dedent(inner)))
        pending = []
    return fields, set_up


_HELPER = re.compile(r"^[ \t]*(?:(?:public|private|protected|static|final)\s+)*"
                     r"(?P<ret>[\w<>\[\],.?]+(?:\s*<[^<>]*>)?)\s+"
                     r"(?P<name>\w+)\s*\([^)]*\)\s*(?:throws\s+[\w\s,.]+)?\{", re.M)
_HELPERS = "SejuryHelpers"


def _helpers(tests: str) -> dict[str, str]:
    """The methods a test class declares beside ``main`` (``testF(int n, ...)`` that a main calls
    once per case, as small models often write): name -> its declaration, brace-balanced."""
    found: dict[str, str] = {}
    for m in _HELPER.finditer(tests):
        name = m.group("name")
        if name == "main" or m.group("ret") in NOT_TYPES | {"class"}:
            continue
        (body,) = _clike.block_bodies(tests[m.start():], re.compile(r"\{"))[:1] or [""]
        if _CHECK.search(body):
            found[name] = tests[m.start():m.end()] + body + "}"
    return found


def _split_with_helpers(tests: str, helpers: dict[str, str]) -> Suite:
    """One unit per statement of ``main`` (each call of a helper is a case); the helpers become
    static methods of a local class the units call.  A helper that catches ``AssertionError`` (to
    print it and go on) would hide every failure: the catch is made to catch nothing."""
    members = []
    for decl in helpers.values():
        head, rest = textwrap.dedent(decl).split("{", 1)
        head = re.sub(r"\b(?:public|private|protected)\s+", "", head)
        head = head if re.search(r"\bstatic\b", head) else "static " + head.lstrip()
        rest = re.sub(r"catch\s*\(\s*(?:java\.lang\.)?AssertionError\b", "catch (SejuryAssert.Never", rest)
        members.append(textwrap.indent(head.strip() + " {" + rest, "  "))
    setup = f"class {_HELPERS} {{\n" + "\n".join(members) + "\n}"
    calls = _clike.calls_of(helpers)
    (main,) = _clike.block_bodies(tests, _ENTRY)[:1]
    units: list[str] = []
    before: list[str] = []
    for stmt in _clike.balanced_statements(textwrap.dedent(main)):
        if calls.search(stmt) or _CHECK.search(stmt):
            units.append(calls.sub(rf"{_HELPERS}.\1(", stmt) if not before else
                         "{\n" + "\n".join([*before, calls.sub(rf"{_HELPERS}.\1(", stmt)]) + "\n}")
        else:
            before.append(stmt)
    return Suite(setup, units)


def call(program: str, name: str) -> str:
    """``Problem.f(...)`` for a static method, ``new Solution().f(...)`` for an instance method."""
    m = methods_of(PACKAGE.sub("", program)).get(name)
    if m is None:
        return f"{name}(...)"
    return f"{m.cls}.{name}(...)" if m.static else f"new {m.cls}().{name}(...)"


def adapt_reference(program: str, output: str) -> tuple[str, list[str]] | None:
    """A reference fit to its signature (``_adapt.py``), line numbers as javac saw the file."""
    return _adapt.adapt(_adapt.JAVA, PACKAGE.sub("", program), output)


def _escape(ch: str) -> str | None:
    """A character beyond ASCII in a string literal, as its UTF-16 units' ``\\u`` escapes (a control
    character never: Java reads ``\\u`` before lexing, so those are written in octal)."""
    if ord(ch) <= 127:
        return None
    data = ch.encode("utf-16-be")
    return "".join(f"\\u{int.from_bytes(data[i:i + 2], 'big'):04x}" for i in range(0, len(data), 2))


LANGUAGE = Language(name="java", aliases=(), split=split,
                    defined_names=lambda program: _clike.defined_names(_DEFINES, program), harness=sealed_harness,
                    plain_harness=harness,
                    assemble=_clike.assemble_c_like,
                    test_line=re.compile(r"AssertionError|\bassert\w*\("), timeout=90.0, codebleu="java",
                    program_error=re.compile(r"^(?!Sejury)\w+\.java:\d+: error: ", re.M),
                    grammar="tree_sitter_java", adapt_reference=adapt_reference, call=call, stdio=_stdio.java,
                    reads_stdin=_stdio.JAVA_READS, literals=True,
                    dummies=_dummies.java, return_type="type",
                    read_calls=_literals.clike_calls("java"), parameters=_literals.c_parameters,
                    write_typed=_literals.java_value, escape=_escape, test_name=test_name)
