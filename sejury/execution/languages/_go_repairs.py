"""Repairing the slips small models make in Go tests that Go's compiler refuses although their
meaning is plain, before the suite is split and compiled.  Each repair changes only text Go
rejects, so a suite that compiles is left as it is:

- a composite literal's element followed by a newline without a comma (``{2, []int{3}}`` as the
  last row of a table, then ``}`` on the next line): Go's semicolon rule needs the comma;
- a map literal that gives one key twice (``map[int]bool{1: true, 2: false, 1: true}``): the later
  entries are dropped;
- an equality helper the suite calls but never defines (``slicesEqual(got, want)``): it is given,
  as ``reflect.DeepEqual`` with an empty slice or map equal to an empty one (``nil`` included);
- the program called as a package of its own (``collatz.GetOddCollatz(5)``): called in the tests'
  package (``unqualified``);
- a Python list where Go needs a composite literal (``[2, 4]`` for ``[2]int{2, 4}``): written so by
  the type its place declares, the program's signatures included (``_go_lists``, before the split).

The literals are read with tree-sitter's Go grammar (Go's ``Language.parser``), which accepts the
missing commas and so tells a literal's braces from a block's.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

from sejury.execution.languages import _clike
from sejury.execution.languages._parsers import node_text, parser

if TYPE_CHECKING:
    import tree_sitter as ts

_ELEMENTS = {"literal_element", "keyed_element", "ERROR"}
_BUILTINS = frozenset({"append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make",
                       "max", "min", "new", "panic", "print", "println", "real", "recover"})
_SUFFIX = "\n}\n"
_EQUALITY = re.compile(r"(?i)^(?:is|are|check|assert)?_?\w*equal\w*$")


def _parsed(tests: str) -> tuple[ts.Node, bytes, int, int]:
    """The syntax tree of ``tests`` (a fragment is read inside a function of a package), its bytes,
    and how many bytes of wrapping precede and follow the tests."""
    if re.search(r"^[ \t]*package\s", tests, re.M):
        prefix = ""
    else:
        prefix = "package p\nfunc _() {\n" if not re.search(r"^func\s", tests, re.M) else "package p\n"
    suffix = _SUFFIX * prefix.endswith("{\n")
    data = (prefix + tests + suffix).encode()
    return parser("go").parse(data).root_node, data, len(prefix.encode()), len(suffix)


def _walk(node: ts.Node, kind: str) -> list[ts.Node]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type == kind:
            out.append(n)
        stack.extend(reversed(n.children))
    return out


def _missing_commas(root: ts.Node) -> list[int]:
    """The byte offsets where a literal's element ends a line without its comma."""
    at = []
    for lit in _walk(root, "literal_value"):
        kids = [k for k in lit.children if k.type != "comment"]
        for k, nxt in itertools.pairwise(kids):
            if k.type in _ELEMENTS and nxt.type != "," and nxt.start_point.row > k.end_point.row:
                at.append(k.end_byte)
    return at


def _duplicate_keys(root: ts.Node) -> list[tuple[int, int]]:
    """The byte spans of a map literal's entries whose key an earlier entry already gives."""
    spans = []
    for lit in _walk(root, "literal_value"):
        parent = lit.parent
        kind = parent.child_by_field_name("type") if parent is not None and parent.type == "composite_literal" else None
        if kind is None or kind.type != "map_type":
            continue
        seen: set[bytes] = set()
        kids = lit.children
        for i, k in enumerate(kids):
            if k.type != "keyed_element" or not k.children:
                continue
            key = b" ".join((k.children[0].text or b"").split())
            if key not in seen:
                seen.add(key)
                continue
            after = kids[i + 1] if i + 1 < len(kids) else None
            end = after.end_byte if after is not None and after.type == "," else k.end_byte
            spans.append((k.start_byte, end))
    return spans


def repaired(tests: str) -> str:
    """``tests`` with the literals' missing commas given and a map literal's repeated keys dropped
    (unchanged where there is nothing to repair or the text cannot be read)."""
    if "{" not in tests:
        return tests
    try:
        root, data, skip, tail = _parsed(tests)
    except ValueError:  # the grammar gave up on it (``base.PARSE_LIMIT_MICROS``)
        return tests
    edits: list[tuple[int, int, bytes]] = [(at, at, b",") for at in _missing_commas(root)]
    edits += [(s, e, b"") for s, e in _duplicate_keys(root)]
    if not edits or any(s < skip for s, _, _ in edits):
        return tests
    for start, end, text in sorted(edits, reverse=True):
        data = data[:start] + text + data[end:]
    return data[skip:len(data) - tail].decode(errors="replace")


def _defined(root: ts.Node) -> set[str]:
    names = {node_text(n.child_by_field_name("name")) for n in _walk(root, "function_declaration")}
    for kind in ("short_var_declaration", "var_spec", "parameter_declaration", "const_spec"):
        for n in _walk(root, kind):
            names |= {node_text(i) for i in n.children if i.type == "identifier"}
            for lst in n.children:
                if lst.type == "expression_list" and lst == n.children[0]:
                    names |= {node_text(i) for i in lst.children if i.type == "identifier"}
    return names


EQUAL = ("func(a, b interface{}) bool {\n"  # on the harness's own import of reflect (go.py)
         "\tva, vb := sejuryreflect.ValueOf(a), sejuryreflect.ValueOf(b)\n"
         "\tif va.IsValid() && vb.IsValid() && va.Kind() == vb.Kind() && (va.Kind() == sejuryreflect.Slice || "
         "va.Kind() == sejuryreflect.Map) && va.Len() == 0 && vb.Len() == 0 {\n\t\treturn true\n\t}\n"
         "\treturn sejuryreflect.DeepEqual(a, b)\n}")


def equality_helpers(tests: str, names: set[str]) -> str:
    """Definitions, for the suite's setup, of the equality helpers ``tests`` calls but neither it nor
    the program (``names``) defines."""
    if "qual" not in tests.lower():
        return ""
    try:
        root = _parsed(tests)[0]
    except ValueError:  # the grammar gave up on it (``base.PARSE_LIMIT_MICROS``)
        return ""
    called = {node_text(f) for n in _walk(root, "call_expression")
              if (f := n.child_by_field_name("function")) is not None and f.type == "identifier"}
    missing = sorted(c for c in called - _defined(root) - names - _BUILTINS if _EQUALITY.match(c))
    return "\n".join(f"var {n} func(a, b interface{{}}) bool\n{n} = {EQUAL}\n_ = {n}" for n in missing)


_GO_STD = frozenset({"fmt", "math", "strings", "strconv", "sort", "reflect", "unicode", "bytes", "errors",
                     "os", "time", "regexp", "testing", "utf8", "bits", "big", "rand", "heap", "list"})


_TESTIFY_PATH = "github.com/stretchr/testify/"


def unqualified(tests: str, names: set[str]) -> str:
    """``collatz.GetOddCollatz(5)`` -> ``GetOddCollatz(5)``: the model imports the program as a
    package of its own (``import "collatz"``); the tests run in the program's package."""
    imported = {p.rsplit("/", 1)[-1] for p in re.findall(r'"([\w./-]+)"', "\n".join(
        re.findall(r"^import\s*(?:\([^)]*\)|\"[^\"]*\")", tests, flags=re.M)))
        if not p.startswith(_TESTIFY_PATH)} - _GO_STD  # testify's assert.Error is no program's Error
    if not imported or not names:
        return tests
    return re.sub(rf"\b(?:{'|'.join(map(re.escape, sorted(imported)))})\.({'|'.join(map(re.escape, sorted(names)))})\b",
                  r"\1", tests)


# a test function's head (go.py splits the tests at these too)
TEST_FUNC = re.compile(r"func\s+Test\w*\s*\(\s*\w+\s+\*testing\.T\s*\)\s*\{")
_RECOVER = re.compile(r"\brecover\s*\(\s*\)")


def recovering_as_one(tests: str) -> str:
    """A test function that recovers a panic itself (``defer func() { if r := recover(); r == nil {
    t.Error(...) } }()``, then the call expected to panic: Go's own idiom for "it panics") is one
    unit: its body becomes one closure, so the deferred check covers the calls after it.  Split
    check by check, the deferred check was a unit of its own and the call went to the next one."""
    out, at = [], 0
    for m in TEST_FUNC.finditer(tests):
        if m.start() < at:
            continue
        end = _clike.closing(tests, m.end() - 1)
        if end < 0 or not _RECOVER.search(tests, m.end(), end):
            continue
        out.append(f"{tests[at:m.end()]}\nfunc() {{{tests[m.end():end]}}}()\n")
        at = end
    return "".join(out) + tests[at:]
