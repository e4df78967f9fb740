"""``unittest.TestCase`` classes in a Python suite, run as unittest runs them.

A test of a ``TestCase`` class is a unit of its own, and the harness's checker runs it with
``RUN`` (``sealed_python/checker.pyt``): in a ``unittest.TestSuite`` of that one test, so the
suite's ``setUpModule`` (once, the checker's own doing), the class's ``setUpClass``/
``tearDownClass``, the test's ``setUp``/``tearDown`` and cleanups run, its
``subTest`` blocks each count, and its first failure is raised as it was raised (an
``AssertionError``, the candidate's own exception, the sandbox's missing network), as a plain
test's would be.  A skipped test fails (``SkipTest``: a test that checks nothing is no evidence,
and on the reference it is dropped); one marked ``expectedFailure`` passes when it fails.

This is the form of BigCodeBench's own tests (``class TestCases(unittest.TestCase)``, its
files made in ``setUp`` and removed in ``tearDown``) and of many a repository's.  Before, such a
test was called as ``TestCases().test_x()``: ``setUp`` never ran, so the test failed on the
reference too and was dropped; a class whose name does not start with ``Test`` was not read at all.

A class is a ``TestCase`` when one of its bases is named ``...TestCase`` (``unittest.TestCase``,
``IsolatedAsyncioTestCase``) or is such a class of the suite.  One that others derive from goes to
the suite's setup too (and one with no test of its own only there).  A test a class inherits from
a class of the suite (a base ``TestCase``, a mixin ``class Checks:`` of shared tests) is a unit of
that class too, as unittest and pytest run it: the class (its own tests cut out) after its bases.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable, Iterator

from sejury.execution.languages._pysource import UNPARSEABLE, Source
from sejury.execution.languages._pytest import patches

RUN = "sejury_case"  # the checker's runner: sejury_case(TheClass, "test_name")


def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def cases(tree: ast.Module) -> set[str]:
    """The suite's top-level ``TestCase`` classes (in order, so a class of a base defined above counts)."""
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(
                (name := _base_name(b)).endswith("TestCase") or name in found for b in node.bases):
            found.add(node.name)
    return found


def bases(tree: ast.Module) -> set[str]:
    """The names the suite's top-level classes derive from."""
    return {_base_name(b) for n in tree.body if isinstance(n, ast.ClassDef) for b in n.bases}


def _test_methods(node: ast.ClassDef) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [m for m in node.body
            if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name.startswith("test")]


def tests(node: ast.ClassDef) -> list[str]:
    """The class's own test methods, in order (a name defined twice once: the class keeps the last)."""
    return list(dict.fromkeys(m.name for m in _test_methods(node)))


def _referenced(nodes: list[ast.stmt]) -> set[str]:
    """The names and attributes ``nodes`` read (``self.test_other()`` reads ``test_other``)."""
    return {n.attr if isinstance(n, ast.Attribute) else n.id for m in nodes for n in ast.walk(m)
            if isinstance(n, (ast.Attribute, ast.Name))}


def inherited(node: ast.ClassDef, classes: dict[str, ast.ClassDef], sync_only: bool = False) -> list[str]:
    """The tests ``node`` inherits from the suite's ``classes`` (its bases', theirs, ...) and does
    not define again, in order; ``sync_only``: not the ``async`` ones (called bare, a coroutine never
    awaited would pass)."""
    own = {m.name for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    own |= {t.id for m in node.body if isinstance(m, ast.Assign) for t in m.targets if isinstance(t, ast.Name)}
    found: dict[str, None] = {}
    seen: set[str] = {node.name}
    stack = list(reversed(node.bases))
    while stack:
        base = classes.get(_base_name(stack.pop()))
        if base is None or base.name in seen:
            continue
        seen.add(base.name)
        found.update(dict.fromkeys(m.name for m in _test_methods(base) if m.name not in own and m.name not in found
                                   and not (sync_only and isinstance(m, ast.AsyncFunctionDef))))
        own |= {m.name for m in base.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
        stack.extend(reversed(base.bases))
    return list(found)


def units(node: ast.ClassDef, source: Source, call: Callable[[str], list[str]] | None = None,
          inherits: list[str] | None = None, omit: list[ast.expr] | None = None) -> Iterator[str]:
    """One unit per test of the class: the class with that test alone (and any other test it, or a
    member that is not a test, calls: ``self.test_other()``), then the runner's call of it, made
    one by one (the caller keeps as many as its ``Copies`` leaves room for).

    ``call``: how to run test ``name`` of a class that is not a ``TestCase``, one text per run
    (``_pytest.class_runs``: ``Tests().{name}()``, or its fixtures made first, a run per parametrized
    row; its ``async`` tests on the unit's event loop).
    ``inherits``: the tests it inherits (``inherited``), each run on this class, its own tests cut out.
    ``omit``: decorators left out of the class's text (its fixtures': ``call`` makes them)."""
    methods = _test_methods(node)
    index: dict[str, list[int]] = {}
    for k, m in enumerate(methods):
        index.setdefault(m.name, []).append(k)
    cut = source.cut(node, list(methods), omit or [])
    shared = _referenced([m for m in node.body if not (isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                                                      and m.name in index)])
    called = {n for n in shared if n in index}  # tests a member that is not a test calls

    def one(name: str) -> Iterator[str]:
        keep = ({name} & index.keys()) | called
        while more := {n for n in _referenced([methods[k] for n in keep for k in index[n]]) if n in index} - keep:
            keep |= more
        kept = cut.keeping([k for n in keep for k in index[n]])
        for run in call(name) if call else [f"{RUN}({node.name}, {name!r})"]:
            yield f"{patched}{kept}\n{run}"

    patched = "".join(f"@{source.segment(d)}\n" for d in patches(node))  # the class's: on each of its tests

    return (unit for name in [*index, *(inherits or [])] for unit in one(name))


_CALL = re.compile(rf"\n{RUN}\((\w+), '(\w+)'\)\s*$")


def named(unit: str) -> str:
    """A unit as a reader names it: ``TestCases.test_x:`` and the test's own body for a test of a
    ``TestCase`` class (its unit holds the class with that test); any other unit as it is."""
    if (m := _CALL.search(unit)) is None:
        return unit
    cls, name = m.groups()
    try:
        tree = ast.parse(unit)
    except UNPARSEABLE:
        return unit
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name and node.body:
            body = textwrap.dedent("\n".join(ast.get_source_segment(unit, s, padded=True) or "" for s in node.body))
            return f"{cls}.{name}:\n{body}"
    return f"{cls}.{name}"
