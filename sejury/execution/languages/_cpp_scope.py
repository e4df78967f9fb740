"""A C++ test file's own top level: the helpers, types, fixtures and constants it defines beside
its tests, kept at the checker's file scope.

HumanEval-X's C++ tests define ``bool issame(vector<int> a, vector<int> b)`` before ``main``; a
developer's GoogleTest file defines fixtures (``class CalcTest : public ::testing::Test``), helper
functions and constants.  Until ``RUNNERS_VERSION`` 51 only ``main``'s body (or the ``TEST``
blocks) was read: every check calling such a helper did not compile, and was dropped.

The file is read with tree-sitter's C++ grammar (``Language.parser``).  Kept, in the file's order:
functions, templates, classes, structs, enums, unions, namespaces, ``using``/``typedef``, macros
and, where the file has a ``main`` or ``TEST`` blocks, its global declarations.  Left out: the
``#include`` lines (the checker includes the standard library; ``gtest/gtest.h`` and the
program's header do not exist), ``main``, the ``TEST`` blocks, ``INSTANTIATE_TEST_SUITE_P``
(``gtest_rows`` reads it), and a definition of a name the program defines (a copy of the solution
never masks the candidate).  A text with neither ``main`` nor ``TEST`` blocks keeps its
declarations as the test's statements (they are run in order).

Each kept item is a part of the suite's setup (``PART`` before it, ``MAIN`` after the last): a
part the compiler names is dropped and the rest compiled again (``runner``), as a unit is, so one
helper that does not compile costs only the checks that call it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sejury.execution.languages import _clike
from sejury.execution.languages._parsers import node_text, parser

if TYPE_CHECKING:
    import tree_sitter as ts

PART = "//@sejury-part"  # opens each item of the file's own scope in a suite's setup
MAIN = "//@sejury-main"  # ends them: what follows is main's setup
_ENTRIES = re.compile(r"^(?:main|TEST|TEST_F|TEST_P)$")
_KEPT = {"function_definition", "template_declaration", "class_specifier", "struct_specifier", "enum_specifier",
         "union_specifier", "namespace_definition", "alias_declaration", "type_definition", "using_declaration",
         "preproc_def", "preproc_function_def", "preproc_call", "preproc_ifdef", "preproc_if",
         "static_assert_declaration"}
_INSTANTIATE = re.compile(r"\bINSTANTIATE_TEST_(?:SUITE|CASE)_P\s*\(")
_CHECKS = re.compile(r"\bassert\s*\(|\bthrow\b|\b(?:EXPECT|ASSERT)_[A-Z_]+\s*\(")


@dataclass
class TopLevel:
    """What a test file holds at its top level besides its tests."""

    parts: list[str] = field(default_factory=list)  # the items kept at file scope, in order
    rest: str = ""  # the text with those items (and the left-out ones) blanked: the tests
    checking: set[str] = field(default_factory=set)  # kept functions that check: each call is a test
    # globals whose value calls the program: run first in main, once the program's process is up
    first: list[str] = field(default_factory=list)

    def setup(self, main: str) -> str:
        """The suite's setup: the parts, then ``main``'s setup (none: ``main`` as it is)."""
        if not self.parts and not self.first:
            return main
        return "\n".join([*(f"{PART}\n{p}" for p in self.parts), MAIN, *self.first, main])


def split_setup(setup: str) -> tuple[list[str], str]:
    """A setup made by ``TopLevel.setup``, as the file-scope parts and ``main``'s setup."""
    if MAIN not in setup:
        return [], setup
    scope, _, main = setup.partition(MAIN)
    parts = [p.strip("\n") for p in scope.split(PART)]
    return [p for p in parts if p.strip()], main.lstrip("\n")


def _name(node: ts.Node) -> str:
    """The name a top-level item defines ("" for none): a function's, a type's, a template's."""
    while node.type == "template_declaration":  # a loop: a hostile text nests them 40,000 deep
        inner = [c for c in node.named_children if c.type != "template_parameter_list"]
        if not inner:
            return ""
        node = inner[-1]
    if node.type == "function_definition" or node.type == "declaration":
        d = node.child_by_field_name("declarator")
        while d is not None and d.type not in ("identifier", "field_identifier", "qualified_identifier",
                                                "destructor_name", "operator_name"):
            d = d.child_by_field_name("declarator")
        return node_text(d) if d is not None and d.type == "identifier" else ""
    named = node.child_by_field_name("name")
    return node_text(named)


def _declares_function(node: ts.Node) -> bool:
    """A declaration of a function (a prototype), not of a variable."""
    d = node.child_by_field_name("declarator")
    while d is not None and d.type not in ("function_declarator", "identifier"):
        d = d.child_by_field_name("declarator")
    return d is not None and d.type == "function_declarator"


def read(tests: str, names: set[str]) -> TopLevel:
    """``tests``' top level, the program's ``names`` not defined again; the text as it is where
    the grammar gives up on it (``base.PARSE_LIMIT_MICROS``)."""
    data = tests.encode()
    try:
        root = parser("cpp").parse(data).root_node
    except ValueError:
        return TopLevel(rest=tests)
    items = root.children
    entries = any(c.type == "function_definition" and _ENTRIES.match(_name(c)) for c in items)
    top = TopLevel()
    calls = _clike.calls_of(names) if names else None
    cut: list[tuple[int, int]] = []
    for k, node in enumerate(items):
        text = node_text(node)
        end = node.end_byte
        if k + 1 < len(items) and items[k + 1].type == ";":
            end = items[k + 1].end_byte  # ``struct P {...}`` and its ``;``
        name = _name(node)
        if node.type == "preproc_include" or (node.type == "expression_statement" and _INSTANTIATE.match(text)):
            cut.append((node.start_byte, end))
        elif node.type == "function_definition" and _ENTRIES.match(name):
            continue  # a test: read by the statement splitter
        elif node.type in _KEPT or (entries and node.type == "declaration"):
            if node.has_error:
                continue
            cut.append((node.start_byte, end))
            if name in names or (node.type == "declaration" and _declares_function(node)):
                continue  # the program's own name defined again; a prototype (its definition is kept)
            if node.type == "declaration" and calls and calls.search(text):
                top.first.append(data[node.start_byte:end].decode())
                continue
            top.parts.append(data[node.start_byte:end].decode())
            if node.type in ("function_definition", "template_declaration") and name and _CHECKS.search(text):
                top.checking.add(name)
    out, at = [], 0
    for a, b in cut:
        out.append(data[at:a].decode())
        out.append("\n" * data[a:b].count(b"\n"))  # lines kept: a diagnostic's line still means the same
        at = b
    out.append(data[at:].decode())
    top.rest = "".join(out)
    return top


def gtest_rows(tests: str) -> dict[str, list[str]]:
    """``INSTANTIATE_TEST_SUITE_P(Prefix, Suite, generator)``: each parameterized suite's values as
    written, for ``Values(a, b, ...)``, ``Range(a, b[, step])`` of integer literals and ``Bool()``;
    other generators (``ValuesIn``, ``Combine``) are not read, and their suite has no row."""
    rows: dict[str, list[str]] = {}
    for m in _INSTANTIATE.finditer(tests):
        end = _clike.closing(tests, m.end() - 1)
        args = _clike.split_commas(tests[m.end():end], "([{<", ")]}>") if end > 0 else []
        if len(args) < 3:
            continue
        rows.setdefault(args[1].strip(), []).extend(_values(args[2].strip(), tests))
    return rows


_ROWS = 1000  # rows of one ``Range`` read at most
_GENERATOR = re.compile(r"^(?:::)?(?:testing::)?(Values|ValuesIn|Range|Bool)\s*\((.*)\)$", re.S)


def _values(generator: str, tests: str) -> list[str]:
    m = _GENERATOR.match(generator)
    if m is None:
        return []
    kind, inner = m.group(1), m.group(2).strip()
    if kind == "Bool":
        return ["false", "true"]
    if kind == "ValuesIn":
        return _listed(inner, tests)
    args = [a.strip() for a in _clike.split_commas(inner, "([{<", ")]}>")]
    if kind == "Values":
        return args
    if not all(re.fullmatch(r"-?\d+", a) for a in args) or len(args) not in (2, 3):
        return []
    start, stop, step = int(args[0]), int(args[1]), int(args[2]) if len(args) == 3 else 1
    return [str(v) for v in range(start, stop, step)[:_ROWS]] if step > 0 else []  # sliced before it is made


def _listed(container: str, tests: str) -> list[str]:
    """``ValuesIn``'s values as written: a braced list given in place (``std::vector<int>{1, 2}``),
    or the one a variable of the file is initialised with (``const Case kCases[] = {{1, 1}, ...};``);
    [] for anything else (a function's result)."""
    if re.fullmatch(r"\w+", container):
        decl = re.search(rf"\b{container}\s*(?:\[\s*\w*\s*\])?\s*=?\s*\{{", tests)
        if decl is None:
            return []
        container, start = tests, decl.end() - 1
    elif container.endswith("}") and "{" in container:
        start = container.index("{")
    else:
        return []
    end = _clike.closing(container, start)
    return _clike.top_level_items(container[start + 1:end])[:_ROWS] if end > start else []
