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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sejury.execution import languages
from sejury.execution.languages._parsers import parser

if TYPE_CHECKING:  # the parser loads with its first use (the jurors' modules import this one)
    import tree_sitter as ts


@dataclass(frozen=True)
class Mutant:
    operator: str  # "comparison", "arithmetic", "logical", "swap operands", "off by one", "constant", ...
    line: int  # 1-based line of the change in the program
    column: int  # 1-based
    before: str
    after: str
    program: str

    @property
    def label(self) -> str:
        return f"{self.line}:{self.column} {self.operator}: `{_one_line(self.before)}` -> `{_one_line(self.after)}`"


@dataclass(frozen=True)
class Dummy:
    label: str  # "raises", "returns 0", ...
    program: str


def _one_line(text: str, width: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


def supported(language: str) -> str | None:
    """The canonical language name when mutants can be made for it (it has a tree-sitter grammar), else None."""
    lang = languages.get(language)
    return lang.name if lang is not None and lang.grammar is not None else None


_BINARY = {"binary_expression", "binary_operator", "comparison_operator", "boolean_operator"}
_COMPARISON = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "===": "!==", "!==": "==="}
_ARITHMETIC = {"+": "-", "-": "+", "*": "/", "/": "*", "//": "*"}
_LOGICAL = {"&&": "||", "||": "&&", "and": "or", "or": "and"}
_AUGMENTED = {"+=": "-=", "-=": "+=", "*=": "/=", "/=": "*="}
_NON_COMMUTATIVE = {"-", "/", "//", "%"}
_INTEGER = {"integer", "decimal_integer_literal", "number_literal", "int_literal", "number"}
_BOOLEAN = {"true": "false", "false": "true", "True": "False", "False": "True"}
_STATEMENT = {"expression_statement", "assignment_statement", "inc_statement", "dec_statement"}  # Go's too
_EMPTY = {"python": b"pass", "go": b"{}"}  # what a removed statement becomes (";" elsewhere)
_DECIMAL = re.compile(r"[0-9]+")


def _walk(node: ts.Node) -> Iterator[ts.Node]:
    yield node
    for child in node.children:
        yield from _walk(child)


def _candidates(language: str, src: bytes, spans: Sequence[tuple[int, int]],
                ) -> Iterator[tuple[str, int, int, bytes]]:
    """(operator, start byte, end byte, replacement) for every single change inside a span."""
    tree = parser(language).parse(src)
    for node in _walk(tree.root_node):
        if node.has_error or not any(lo <= node.start_byte and node.end_byte <= hi for lo, hi in spans):
            continue
        text = src[node.start_byte:node.end_byte].decode()
        parent = node.parent
        if not node.is_named and parent is not None and parent.type in _BINARY:
            for table, name in ((_COMPARISON, "comparison"), (_ARITHMETIC, "arithmetic"), (_LOGICAL, "logical")):
                if text in table:
                    yield name, node.start_byte, node.end_byte, table[text].encode()
            if text in _NON_COMMUTATIVE and parent.type != "comparison_operator" and parent.named_child_count == 2:
                left, right = parent.named_children
                swapped = src[right.start_byte:right.end_byte] + src[left.end_byte:right.start_byte] + \
                    src[left.start_byte:left.end_byte]
                yield "swap operands", left.start_byte, right.end_byte, swapped
        elif not node.is_named and parent is not None and "assignment" in parent.type and text in _AUGMENTED:
            yield "arithmetic", node.start_byte, node.end_byte, _AUGMENTED[text].encode()
        elif node.type in _INTEGER and _DECIMAL.fullmatch(text):
            yield "off by one", node.start_byte, node.end_byte, str(int(text) + 1).encode()
        elif node.type in _BOOLEAN and text in _BOOLEAN:
            yield "constant", node.start_byte, node.end_byte, _BOOLEAN[text].encode()
        elif node.type in _STATEMENT and parent is not None and parent.type not in {"module", "program",
                                                                                    "translation_unit"}:
            yield "remove statement", node.start_byte, node.end_byte, _EMPTY.get(language, b";")


def mutants(language: str, program: str, spans: Sequence[tuple[int, int]] | None = None, *,
            limit: int | None = None, seed: int = 0) -> list[Mutant]:
    """One-change mutants of ``program`` whose change lies in one of ``spans`` (character offsets;
    the whole program by default), distinct and different from the program.  With ``limit``, a
    seeded draw that takes the operators in turn, so each kind of bug is represented."""
    name = supported(language)
    if name is None:
        return []
    src = program.encode()
    in_bytes = [(len(program[:a].encode()), len(program[:b].encode())) for a, b in (spans or [(0, len(program))])]
    seen: set[str] = set()
    by_operator: dict[str, list[Mutant]] = {}
    for operator, a, b, new in _candidates(name, src, in_bytes):
        mutated = (src[:a] + new + src[b:]).decode()
        if mutated == program or mutated in seen:
            continue
        seen.add(mutated)
        line = src[:a].count(b"\n") + 1
        column = len(src[src.rfind(b"\n", 0, a) + 1:a].decode()) + 1
        by_operator.setdefault(operator, []).append(
            Mutant(operator, line, column, src[a:b].decode(), new.decode(), mutated))
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


def _function_name(language: str, node: ts.Node, src: bytes) -> str:
    name = node.child_by_field_name("name")
    if name is None and language == "cpp":  # int f(...) / std::vector<int> Solution::f(...)
        decl = node.child_by_field_name("declarator")
        while decl is not None and decl.type != "function_declarator":
            decl = decl.child_by_field_name("declarator")
        name = decl.child_by_field_name("declarator") if decl is not None else None
    text = src[name.start_byte:name.end_byte].decode() if name is not None else ""
    return text.rsplit("::", 1)[-1]


def _find_function(language: str, src: bytes, function: str) -> ts.Node | None:
    """The last definition of ``function``: a declaration, or (JavaScript) an arrow function or
    function expression bound to the name, whose body is a block."""
    tree = parser(language).parse(src)
    found = []
    for n in _walk(tree.root_node):
        if n.type in _FUNCTIONS and _function_name(language, n, src) == function:
            found.append(n)
        elif n.type == "variable_declarator" and _function_name(language, n, src) == function:
            value = n.child_by_field_name("value")
            if value is not None and value.type in {"arrow_function", "function_expression", "function"}:
                found.append(value)
    found = [n for n in found if (body := n.child_by_field_name("body")) is not None and body.type != "expression"
             and (language != "javascript" or body.type == "statement_block")]
    return found[-1] if found else None


_PY_ZERO = {"int": "0", "float": "0.0", "str": '""', "bool": "False", "list": "[]", "dict": "{}", "tuple": "()",
            "set": "set()"}
_JAVA_ZERO = {"int": "0", "long": "0", "short": "0", "byte": "0", "double": "0", "float": "0", "char": "0",
              "boolean": "false", "String": '""', "Integer": "0", "Long": "0l", "Double": "0.0", "Float": "0.0f",
              "Boolean": "false", "List": "new ArrayList<>()", "ArrayList": "new ArrayList<>()",
              "Map": "new HashMap<>()", "HashMap": "new HashMap<>()", "Optional": "Optional.empty()"}


def _returns(language: str, node: ts.Node, src: bytes) -> str:
    field = {"python": "return_type", "java": "type", "cpp": "type", "go": "result"}.get(language)
    typ = node.child_by_field_name(field) if field else None
    return src[typ.start_byte:typ.end_byte].decode().strip() if typ is not None else ""


def _bodies(language: str, returns: str) -> list[tuple[str, str]]:
    """(label, body statements) of the dummies for a function returning ``returns``."""
    head = re.split(r"[\[<\s]", returns, maxsplit=1)[0].rsplit(".", 1)[-1]
    if language == "python":
        zero = _PY_ZERO.get(head.lower(), "0")
        return [("raises", "raise NotImplementedError"), ("returns None", "return None"),
                *([] if zero == "None" else [(f"returns {zero}", f"return {zero}")])]
    if language == "javascript":
        return [("raises", 'throw new Error("not implemented");'), ("returns undefined", "return undefined;"),
                ("returns 0", "return 0;"), ('returns ""', 'return "";'), ("returns []", "return [];")]
    if language == "java":
        if head == "void":
            return [("raises", 'throw new UnsupportedOperationException("not implemented");'), ("does nothing", "")]
        zero = _JAVA_ZERO.get(head, "null")
        return [("raises", 'throw new UnsupportedOperationException("not implemented");'),
                (f"returns {zero}", f"return {zero};")]
    if language == "cpp":
        if head == "void":
            return [("raises", 'throw std::runtime_error("not implemented");'), ("does nothing", "")]
        return [("raises", 'throw std::runtime_error("not implemented");'), ("returns {}", "return {};")]
    if language == "go":
        if not returns:
            return [("raises", 'panic("not implemented")'), ("does nothing", "")]
        if returns.startswith("("):
            return [("raises", 'panic("not implemented")')]
        return [("raises", 'panic("not implemented")'), ("returns the zero value", f"return *new({returns})")]
    return []


def dummies(language: str, program: str, function: str) -> list[Dummy]:
    """``program`` with ``function``'s body replaced by trivial ones (raise; return a zero value)."""
    name = supported(language)
    if name is None or not function:
        return []
    src = program.encode()
    node = _find_function(name, src, function)
    if node is None:
        return []
    body = node.child_by_field_name("body")
    assert body is not None
    out = []
    for label, stmts in _bodies(name, _returns(name, node, src)):
        if name == "python":
            indent = " " * (body.start_point[1] or 4)
            new = stmts.replace("\n", "\n" + indent)
        else:
            new = "{ " + stmts + " }"
        out.append(Dummy(label, (src[:body.start_byte] + new.encode() + src[body.end_byte:]).decode()))
    return out
