"""JavaScript literals as Python values and back, for S5-fuzz's seeds and new inputs.

The seeds are the calls of the problem's function in S5's tests whose arguments are all literals:
numbers (a leading ``-`` too), strings (quoted, or a template with no ``${}``), ``true``/``false``,
``null``, arrays and plain objects of those.  They are read with tree-sitter's JavaScript grammar
(the one CodeBLEU and the mutants already bring), so a call inside a string or a comment is never
taken.  A call with any other argument (a variable, ``undefined``, ``new Map()``, a BigInt) is
skipped.  Values come back as JSON writes them, which JavaScript reads as the same literals.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import math
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from sejury.execution.languages._parsers import node_text, parser

if TYPE_CHECKING:  # the parser loads with its first use (the jurors' modules import this one)
    import tree_sitter as ts

Args = tuple[tuple[Any, ...], tuple[tuple[str, Any], ...]]

_DECIMAL_INT = re.compile(r"^\d+$")
_RADIX_INT = re.compile(r"^0[xXoObB][0-9a-fA-F]+$")


class NotLiteral(ValueError):
    """An argument that is not a literal value."""


def seed_calls(tests: str, function: str) -> list[Args]:
    """The literal arguments of every call of ``function`` in ``tests``, in order (duplicates kept)."""
    tree = parser("javascript").parse(tests.encode())
    return list(_calls(tree.root_node, function))


def _calls(root: ts.Node, function: str) -> Iterator[Args]:
    stack = [root]
    found: list[tuple[int, Args]] = []
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            callee, arguments = node.child_by_field_name("function"), node.child_by_field_name("arguments")
            if callee is not None and callee.type == "identifier" and node_text(callee) == function and arguments:
                with contextlib.suppress(NotLiteral, RecursionError):  # a literal nested past Python's stack
                    args = tuple(value(a) for a in arguments.named_children if a.type != "comment")
                    found.append((node.start_byte, (args, ())))
        stack.extend(node.children)
    yield from (args for _, args in sorted(found, key=lambda f: f[0]))


def value(node: ts.Node) -> Any:
    """The Python value of a literal node; ``NotLiteral`` for anything else."""
    kind = node.type
    if kind == "number":
        return _number(node_text(node))
    if kind == "unary_expression":
        op, arg = node.child_by_field_name("operator"), node.child_by_field_name("argument")
        if op is not None and node_text(op) in ("-", "+") and arg is not None and arg.type == "number":
            n = _number(node_text(arg))
            return -n if node_text(op) == "-" else n
        raise NotLiteral(kind)
    if kind in ("string", "template_string"):
        return _string(node)
    if kind in ("true", "false"):
        return kind == "true"
    if kind == "null":
        return None
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return value(node.named_children[0])
    if kind == "array":
        return [value(c) for c in node.named_children if c.type != "comment"]
    if kind == "object":
        out: dict[str, Any] = {}
        for pair in node.named_children:
            if pair.type == "comment":
                continue
            key, val = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if pair.type != "pair" or key is None or val is None:
                raise NotLiteral(pair.type)
            name = _string(key) if key.type == "string" else node_text(key)
            if key.type not in ("property_identifier", "string", "number"):
                raise NotLiteral(key.type)
            out[name] = value(val)
        return out
    raise NotLiteral(kind)


def _number(text: str) -> int | float:
    text = text.replace("_", "")
    if text.endswith("n"):
        raise NotLiteral("BigInt")
    if _DECIMAL_INT.match(text) and not (len(text) > 1 and text.startswith("0")):
        return int(text)
    if _RADIX_INT.match(text):
        return int(text, 0)
    try:
        x = float(text)
    except ValueError as exc:
        raise NotLiteral(text) from exc
    if not math.isfinite(x):
        raise NotLiteral(text)
    return x


def _string(node: ts.Node) -> str:
    parts = []
    for child in node.children:
        if child.type == "string_fragment":
            parts.append(node_text(child))
        elif child.type == "escape_sequence":
            try:
                parts.append(codecs.decode(node_text(child), "unicode_escape"))
            except UnicodeDecodeError as exc:
                raise NotLiteral(node_text(child)) from exc
        elif child.type == "template_substitution":
            raise NotLiteral("template with a substitution")
    return "".join(parts)


def render(v: Any) -> str:
    """``v`` as a JavaScript literal (JSON is one)."""
    return json.dumps(v, ensure_ascii=False)


def render_call(function: str, call: Args) -> str:
    args, _ = call
    return f"{function}({', '.join(map(render, args))})"
