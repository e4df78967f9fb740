"""Programs that should fail a good test suite: one-bug mutants of a program and trivial dummies
of its function, in five languages, read with tree-sitter's parsers (the grammars CodeBLEU
already brings), so an operator is only ever changed where the parser says it is one.

Mutation operators (one change per mutant): a comparison's boundary moved or negated (``<`` to
``<=``, ``==`` to ``!=``), arithmetic swapped (``+``/``-``, ``*``/``/``), ``and``/``or`` swapped,
the operands of a non-commutative operator swapped (``a - b`` to ``b - a``), an integer constant
off by one, a boolean constant flipped, and an expression statement removed.  Dummies replace the
function's body: one that raises, and one that returns the zero value of its return type.
"""

from __future__ import annotations

import difflib
import random
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sejury.execution import languages

if TYPE_CHECKING:  # the parser loads with its first use (the jurors' modules import this one)
    import tree_sitter as ts

    from sejury.execution.languages import Language


@dataclass(frozen=True)
class Mutant:
    operator: str  # "comparison", "arithmetic", "logical", "swap operands", "off by one", "constant", ...
    line: int  # 1-based line of the change in the program
    column: int  # 1-based
    before: str
    after: str
    # the program it changes and where (bytes a..b become ``after``): the mutated program is made
    # when asked for, so the mutants of a long program do not each hold a copy of it
    source: bytes = field(repr=False, compare=False)
    at: tuple[int, int] = field(repr=False)

    @property
    def label(self) -> str:
        return f"{self.line}:{self.column} {self.operator}: `{_one_line(self.before)}` -> `{_one_line(self.after)}`"

    @property
    def program(self) -> str:
        a, b = self.at
        return (self.source[:a] + self.after.encode() + self.source[b:]).decode()


@dataclass(frozen=True)
class Dummy:
    label: str  # "raises", "returns 0", ...
    program: str


def _one_line(text: str, width: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


def supported(language: str) -> str | None:
    """The canonical language name when mutants can be made for it (it has a tree-sitter grammar), else None."""
    lang = _language(language)
    return lang.name if lang is not None else None


def _language(language: str) -> Language | None:
    lang = languages.get(language)
    return lang if lang is not None and lang.grammar is not None else None


_BINARY = {"binary_expression", "binary_operator", "comparison_operator", "boolean_operator"}
_COMPARISON = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "===": "!==", "!==": "==="}
_ARITHMETIC = {"+": "-", "-": "+", "*": "/", "/": "*", "//": "*"}
_LOGICAL = {"&&": "||", "||": "&&", "and": "or", "or": "and"}
_AUGMENTED = {"+=": "-=", "-=": "+=", "*=": "/=", "/=": "*="}
_NON_COMMUTATIVE = {"-", "/", "//", "%"}
_INTEGER = {"integer", "decimal_integer_literal", "number_literal", "int_literal", "number"}
_BOOLEAN = {"true": "false", "false": "true", "True": "False", "False": "True"}
_STATEMENT = {"expression_statement", "assignment_statement", "inc_statement", "dec_statement"}  # Go's too
_DECIMAL = re.compile(r"[0-9]+")


def _walk(node: ts.Node) -> Iterator[ts.Node]:
    """Every node under ``node``, ``node`` first, in the text's order; without recursion, as a
    hostile text's tree can be 40,000 deep (``a<b<c<...`` in an initializer)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def walk_parents(node: ts.Node) -> Iterator[tuple[ts.Node, ts.Node | None]]:
    """``_walk``'s nodes, each with its parent (None for ``node``): tree-sitter finds a node's
    ``parent`` by descending from the root again, so asking it of every node is quadratic in depth."""
    stack: list[tuple[ts.Node, ts.Node | None]] = [(node, None)]
    push = stack.append
    while stack:
        n, parent = stack.pop()
        yield n, parent
        for child in reversed(n.children):
            push((child, n))


def _candidates(lang: Language, src: bytes, spans: Sequence[tuple[int, int]],
                ) -> Iterator[tuple[str, int, int, bytes]]:
    """(operator, start byte, end byte, replacement) for every single change inside a span.  Only
    short texts are decoded (operators, literals), and operands are swapped up to ``SWAP_BYTES``,
    so a long program's cost stays linear in its size (a chain of 40,000 ``-`` is not copied 40,000 times)."""
    tree = lang.parser().parse(src)
    for node, parent in walk_parents(tree.root_node):
        if node.has_error or not any(lo <= node.start_byte and node.end_byte <= hi for lo, hi in spans):
            continue
        if not node.is_named:
            text = src[node.start_byte:node.end_byte].decode()
            if parent is not None and parent.type in _BINARY:
                for table, name in ((_COMPARISON, "comparison"), (_ARITHMETIC, "arithmetic"), (_LOGICAL, "logical")):
                    if text in table:
                        yield name, node.start_byte, node.end_byte, table[text].encode()
                if text in _NON_COMMUTATIVE and parent.type != "comparison_operator" and parent.named_child_count == 2:
                    left, right = parent.named_children
                    if right.end_byte - left.start_byte <= SWAP_BYTES:
                        swapped = src[right.start_byte:right.end_byte] + src[left.end_byte:right.start_byte] + \
                            src[left.start_byte:left.end_byte]
                        yield "swap operands", left.start_byte, right.end_byte, swapped
            elif parent is not None and "assignment" in parent.type and text in _AUGMENTED:
                yield "arithmetic", node.start_byte, node.end_byte, _AUGMENTED[text].encode()
        elif node.type in _INTEGER and node.end_byte - node.start_byte <= SWAP_BYTES and \
                _DECIMAL.fullmatch(text := src[node.start_byte:node.end_byte].decode()):
            yield "off by one", node.start_byte, node.end_byte, str(int(text) + 1).encode()
        elif node.type in _BOOLEAN and (text := src[node.start_byte:node.end_byte].decode()) in _BOOLEAN:
            yield "constant", node.start_byte, node.end_byte, _BOOLEAN[text].encode()
        elif node.type in _STATEMENT and parent is not None and parent.type not in {"module", "program",
                                                                                    "translation_unit"}:
            yield "remove statement", node.start_byte, node.end_byte, lang.empty_statement.encode()


SWAP_BYTES = 1000  # longest operands swapped (and integer literal read): real code's are far shorter


class _Copies:
    """One-edit copies of a text, told apart without making them: each copy's length and its bytes
    as a number mod the prime 2**64 - 59, from the text's own at the edits' ends (``positions``), in
    time of the edit's length; copies that meet on both are compared as text.  (Not a Mersenne
    prime: mod 2**61 - 1 a power of 256 is a power of 2, and a periodic text's copies all met.)"""

    M = (1 << 64) - 59

    def __init__(self, src: bytes, positions: Iterable[int]) -> None:
        self.src, self.prefix = src, {}
        h = last = 0
        for at in sorted({*positions, len(src)}):
            h = (h * pow(256, at - last, self.M) + int.from_bytes(src[last:at], "big")) % self.M
            self.prefix[at], last = h, at
        self._seen: dict[tuple[int, int], list[tuple[int, int, bytes]]] = {}

    def new(self, a: int, b: int, data: bytes) -> bool:
        """Is ``src[:a] + data + src[b:]`` a copy not made before (and not the text itself)?"""
        if self.src[a:b] == data:
            return False
        n, m = len(self.src), self.M
        shift = pow(256, n - b, m)
        tail = (self.prefix[n] - self.prefix[b] * shift) % m
        h = ((self.prefix[a] * pow(256, len(data), m) + int.from_bytes(data, "big")) * shift + tail) % m
        same = self._seen.setdefault((n - (b - a) + len(data), h), [])
        text = self.src[:a] + data + self.src[b:] if same else b""
        if any(self.src[:x] + d + self.src[y:] == text for x, y, d in same):
            return False
        same.append((a, b, data))
        return True


def _line(newlines: list[int], at: int) -> tuple[int, int]:
    """The 1-based line holding byte ``at`` and the byte it starts at (``newlines``: where the
    text's are)."""
    before = bisect_right(newlines, at - 1)
    return before + 1, newlines[before - 1] + 1 if before else 0


def _chars_before(src: bytes, positions: Iterable[int]) -> dict[int, int]:
    """How many characters come before each of ``positions`` (character boundaries) in ``src``."""
    out, count, last = {}, 0, 0
    for at in sorted(set(positions)):
        count += len(src[last:at].decode())
        out[at], last = count, at
    return out


def mutants(language: str, program: str, spans: Sequence[tuple[int, int]] | None = None, *,
            limit: int | None = None, seed: int = 0) -> list[Mutant]:
    """One-change mutants of ``program`` whose change lies in one of ``spans`` (character offsets;
    the whole program by default), distinct and different from the program.  With ``limit``, a
    seeded draw that takes the operators in turn, so each kind of bug is represented."""
    lang = _language(language)
    if lang is None:
        return []
    src = program.encode()
    in_bytes = [(len(program[:a].encode()), len(program[:b].encode())) for a, b in (spans or [(0, len(program))])]
    edits = list(_candidates(lang, src, in_bytes))
    copies = _Copies(src, (at for _, a, b, _ in edits for at in (a, b)))
    newlines = [m.start() for m in re.finditer(b"\n", src)]
    lines = {a: _line(newlines, a) for _, a, _, _ in edits}
    chars = _chars_before(src, (at for a, (_, start) in lines.items() for at in (a, start)))
    by_operator: dict[str, list[Mutant]] = {}
    for operator, a, b, new in edits:
        if not copies.new(a, b, new):
            continue
        line, start = lines[a]
        by_operator.setdefault(operator, []).append(
            Mutant(operator, line, chars[a] - chars[start] + 1, src[a:b].decode(), new.decode(), src, (a, b)))
    every = [m for group in by_operator.values() for m in group]
    return every if limit is None else draw(every, limit, seed)


def draw(every: Sequence[Mutant], limit: int, seed: int = 0) -> list[Mutant]:
    """A seeded draw of ``limit`` of ``every`` that takes the operators in turn, in program order."""
    by_operator: dict[str, list[Mutant]] = {}
    for m in every:
        by_operator.setdefault(m.operator, []).append(m)
    rng = random.Random(seed)
    pools = [rng.sample(group, len(group)) for _, group in sorted(by_operator.items())]
    drawn: list[Mutant] = []
    while len(drawn) < limit and any(pools):
        for pool in pools:
            if pool and len(drawn) < limit:
                drawn.append(pool.pop())
    return sorted(drawn, key=lambda m: (m.line, m.column, m.operator))


def changed_lines(before: str, after: str) -> list[tuple[int, int]]:
    """The spans (character offsets) of ``after`` that are new relative to ``before``: the lines a
    patch added or changed."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    starts = [0]
    for line in new:
        starts.append(starts[-1] + len(line))
    return [(starts[j1], starts[j2]) for tag, _, _, j1, j2 in
            difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes() if tag in {"replace", "insert"}]


def region_of(program: str, code: str) -> tuple[int, int] | None:
    """Where ``code`` (a reference as the sample gives it) sits in the assembled ``program``."""
    body = code.strip()
    at = program.rfind(body) if body else -1
    return (at, at + len(body)) if at >= 0 else None


# ---- dummies -------------------------------------------------------------------------------------

_FUNCTIONS = {"function_definition", "method_declaration", "function_declaration"}


def _function_name(lang: Language, node: ts.Node, src: bytes) -> str:
    name = node.child_by_field_name("name")
    if name is None and lang.name_in_declarator:  # int f(...) / std::vector<int> Solution::f(...)
        decl = node.child_by_field_name("declarator")
        while decl is not None and decl.type != "function_declarator":
            decl = decl.child_by_field_name("declarator")
        name = decl.child_by_field_name("declarator") if decl is not None else None
    text = src[name.start_byte:name.end_byte].decode() if name is not None else ""
    return text.rsplit("::", 1)[-1]


def _find_function(lang: Language, src: bytes, function: str) -> ts.Node | None:
    """The last definition of ``function``: a declaration, or (JavaScript) an arrow function or
    function expression bound to the name, whose body is a block."""
    tree = lang.parser().parse(src)
    found = []
    for n in _walk(tree.root_node):
        if n.type in _FUNCTIONS and _function_name(lang, n, src) == function:
            found.append(n)
        elif n.type == "variable_declarator" and _function_name(lang, n, src) == function:
            value = n.child_by_field_name("value")
            if value is not None and value.type in {"arrow_function", "function_expression", "function"}:
                found.append(value)
    found = [n for n in found if (body := n.child_by_field_name("body")) is not None and body.type != "expression"
             and lang.function_body in (None, body.type)]
    return found[-1] if found else None


def _returns(lang: Language, node: ts.Node, src: bytes) -> str:
    typ = node.child_by_field_name(lang.return_type) if lang.return_type else None
    return src[typ.start_byte:typ.end_byte].decode().strip() if typ is not None else ""


def dummies(language: str, program: str, function: str) -> list[Dummy]:
    """``program`` with ``function``'s body replaced by trivial ones (raise; return a zero value)."""
    lang = _language(language)
    if lang is None or lang.dummies is None or not function:
        return []
    src = program.encode()
    node = _find_function(lang, src, function)
    if node is None:
        return []
    body = node.child_by_field_name("body")
    assert body is not None
    out = []
    for label, stmts in lang.dummies(_returns(lang, node, src)):
        if lang.indented_blocks:
            indent = " " * (body.start_point[1] or 4)
            new = stmts.replace("\n", "\n" + indent)
        else:
            new = "{ " + stmts + " }"
        out.append(Dummy(label, (src[:body.start_byte] + new.encode() + src[body.end_byte:]).decode()))
    return out
