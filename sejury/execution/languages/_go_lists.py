"""A Python list where a Go test needs a composite literal: the model writes ``[2, 4]`` where the
Go type is known (``{[2]int{-1, 1}, [2, 4], "NO"}``, a table's row whose struct declares
``interval2 [2]int``) and Go refuses the whole suite (``unexpected comma; expecting ]``).  Such a
list is written as its type's composite literal, ``[2]int{2, 4}`` (a list inside it with its type
elided, ``[][]int{{1}, {2, 3}}``; a string in single quotes in double ones), where the type is known:

- an argument of a function the program (``Language.typed_repair``'s) or the tests declare;
- an element of a composite literal: a table's row (its struct's field, by position or key), a
  slice's or array's element, a map's value;
- compared (``==``, ``!=``, ``reflect.DeepEqual``, ``slicesEqual``) with a value of known type: a
  declared function's result, a variable declared from one, a table row's field (``tc.want``);
- a variable's value, by its declared type or its later use (``want := [1, 2]`` then
  ``reflect.DeepEqual(got, want)``); what a function with declared results returns.

Only a bracketed list Go cannot read is touched: a ``[`` where an expression starts, whose brackets
hold a top-level comma or are followed by no type (``[2]int{...}``, ``a[2]``, ``make([]int, 3)`` are
Go and stay).  A list of unknown type, of no slice or array type, or not of its array's length
(``[1]`` for ``[2]int``) is left as written.  The lists are read as calls of a placeholder
(``sejuryList(2, 4)``), so tree-sitter's Go grammar reads the suite around them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from sejury.execution.languages import _clike
from sejury.execution.languages._go_repairs import _EQUALITY, _parsed
from sejury.execution.languages._parsers import node_text, parser

if TYPE_CHECKING:
    import tree_sitter as ts

PH = "sejuryList"
_WORD = re.compile(r"\w+")
_STARTS = frozenset("([{,=:!<>+-*/%&|^;") | {"", "return", "case"}  # tokens after which an expression starts
_TYPE_NEXT = re.compile(r"[ \t]*(?:[\w\[*({]|<-)")  # what follows ``]`` where the brackets begin a type: ``[2]int``
_LISTS = frozenset({"slice_type", "array_type", "implicit_length_array_type"})
_FUNCS = frozenset({"function_declaration", "func_literal", "method_declaration"})


def _lists(tests: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The offsets of each bracketed list's ``[`` and ``]`` Go cannot read, and of the strings in
    single quotes inside them that are no rune (``'ab'``)."""
    spans: list[tuple[int, int]] = []
    quoted: list[tuple[int, int]] = []
    last, i = "", 0
    while i < len(tests):
        c = tests[i]
        if tests.startswith(("//", "/*"), i):
            end = tests.find("\n" if tests[i + 1] == "/" else "*/", i + 2)
            i = len(tests) if end < 0 else end + (0 if tests[i + 1] == "/" else 2)
            continue
        if c in "\"'`":
            end = tests.find("`", i + 1) if c == "`" else _clike.string_end(tests, i)  # a raw string has no escapes
            end = len(tests) if end < 0 else end
            body = tests[i + 1:end]
            if c == "'" and len(body) > 1 and not body.startswith("\\") and any(o < i < e for o, e in spans):
                quoted.append((i, end))
            i, last = end + 1, "0"
            continue
        if c.isalnum() or c == "_":
            m = _WORD.match(tests, i)
            last, i = (m.group(), m.end()) if m else (c, i + 1)
            continue
        if c == "[" and last in _STARTS:
            end = _clike.closing(tests, i)
            if end > 0 and (len(_clike.top_level_items(tests[i + 1:end])) > 1 or not _TYPE_NEXT.match(tests, end + 1)):
                spans.append((i, end))
        if not c.isspace():
            last = c
        i += 1
    return spans, quoted


def _placeheld(tests: str, spans: list[tuple[int, int]], quoted: list[tuple[int, int]]) -> str:
    edits = [(o, o + 1, f"{PH}(") for o, _ in spans] + [(e, e + 1, ")") for _, e in spans]
    edits += [(s, e + 1, '"' + tests[s + 1:e].replace('"', '\\"') + '"') for s, e in quoted]
    out, at = [], 0
    for start, end, text in sorted(edits):
        out += [tests[at:start], text]
        at = end
    return "".join(out) + tests[at:]


def _nodes(root: ts.Node, kinds: frozenset[str]) -> Iterator[ts.Node]:
    """The nodes of ``kinds`` under ``root``, in the text's order."""
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in kinds:
            yield n
        stack.extend(reversed(n.children))


def _callee(call: ts.Node) -> str:
    """The name a call calls: ``f`` of ``f(...)`` and of ``pkg.f(...)``."""
    f = call.child_by_field_name("function")
    if f is not None and f.type == "selector_expression":
        f = f.child_by_field_name("field")
    return node_text(f) if f is not None and f.type in ("identifier", "field_identifier") else ""


def _declared(fields: ts.Node | None) -> list[tuple[str, ts.Node]]:
    """(name, type) of each parameter, result or struct field a list declares (an unnamed one's
    name is its type's text); a variadic parameter's type is its element's."""
    out: list[tuple[str, ts.Node]] = []
    for d in fields.named_children if fields is not None else []:
        kind = d.child_by_field_name("type")
        if kind is not None:
            out += [(node_text(n), kind) for n in d.children_by_field_name("name")] or [(node_text(kind), kind)]
    return out


def _signature(fn: ts.Node) -> tuple[list[ts.Node], list[ts.Node]]:
    """A function's (or function literal's) parameter and result types."""
    result = fn.child_by_field_name("result")
    results = [t for _, t in _declared(result)] if result is not None and result.type == "parameter_list" else (
        [result] if result is not None else [])
    return [t for _, t in _declared(fn.child_by_field_name("parameters"))], results


class _Types:
    """What the tests and the program declare: named types, functions' signatures, variables' types."""

    def __init__(self, root: ts.Node, program: str) -> None:
        self.root = root
        trees = [root] + ([parser("go").parse(program.encode()).root_node] if program.strip() else [])
        self.named: dict[str, ts.Node] = {}
        self.funcs: dict[str, tuple[list[ts.Node], list[ts.Node]]] = {}
        for tree in trees:  # the program's declarations over the tests' copies of them
            for n in _nodes(tree, frozenset({"type_spec", "function_declaration"})):
                name, kind = n.child_by_field_name("name"), n.child_by_field_name("type")
                if n.type == "type_spec" and name is not None and kind is not None:
                    self.named[node_text(name)] = kind
                elif n.type == "function_declaration" and name is not None:
                    self.funcs[node_text(name)] = _signature(n)
        self.vars: dict[str, ts.Node] = {}
        kinds = frozenset({"short_var_declaration", "var_spec", "range_clause", "parameter_declaration"})
        for n in _nodes(root, kinds):
            self._declare(n)
        self.found: dict[int, ts.Node | None] = {}

    def _declare(self, n: ts.Node) -> None:
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if n.type in ("parameter_declaration", "var_spec") and (kind := n.child_by_field_name("type")) is not None:
            self.vars |= {node_text(name): kind for name in n.children_by_field_name("name")}
        elif n.type == "range_clause" and left is not None and right is not None:
            ids, over = left.named_children, self.underlying(self.type_of(right))
            if len(ids) == 2 and over is not None:
                kind = over.child_by_field_name("value" if over.type == "map_type" else "element")
                if kind is not None and over.type in _LISTS | {"map_type"}:
                    self.vars[node_text(ids[1])] = kind
        elif n.type == "short_var_declaration" and left is not None and right is not None:
            ids, values = left.named_children, right.named_children
            if len(values) == 1 and values[0].type == "func_literal" and len(ids) == 1:
                self.funcs[node_text(ids[0])] = _signature(values[0])
                return
            types = [self.type_of(v) for v in values] if len(ids) == len(values) else (
                self.results(values[0]) if len(values) == 1 else [])
            self.vars |= {node_text(i): t for i, t in zip(ids, types, strict=False) if t is not None}

    def results(self, call: ts.Node) -> list[ts.Node]:
        sig = self.funcs.get(_callee(call)) if call.type == "call_expression" else None
        return sig[1] if sig else []

    def underlying(self, kind: ts.Node | None) -> ts.Node | None:
        for _ in range(10):  # a named type's definition (and its definition's)
            if kind is None or kind.type != "type_identifier" or node_text(kind) not in self.named:
                break
            kind = self.named[node_text(kind)]
        return kind

    def element(self, kind: ts.Node | None) -> ts.Node | None:
        """The element type of a slice or array type (None for any other)."""
        u = self.underlying(kind)
        return u.child_by_field_name("element") if u is not None and u.type in _LISTS else None

    def field(self, kind: ts.Node | None, key: int | str) -> ts.Node | None:
        u = self.underlying(kind)
        if u is None or u.type != "struct_type" or not u.named_children:
            return None
        fields = _declared(u.named_children[0])
        if isinstance(key, int):
            return fields[key][1] if key < len(fields) else None
        return next((t for name, t in fields if name == key), None)

    def type_of(self, n: ts.Node) -> ts.Node | None:
        """The type of the expression ``n``, where the declarations tell it."""
        if n.type == "parenthesized_expression" and n.named_children:
            return self.type_of(n.named_children[0])
        if n.type == "call_expression":
            results = self.results(n)
            return results[0] if len(results) == 1 else None
        if n.type == "composite_literal":
            return n.child_by_field_name("type")
        if n.type == "identifier":
            return self.vars.get(node_text(n))
        operand = n.child_by_field_name("operand")
        inner = self.type_of(operand) if operand is not None else None
        if n.type == "selector_expression" and (name := n.child_by_field_name("field")) is not None:
            return self.field(inner, node_text(name))
        if n.type == "index_expression":
            u = self.underlying(inner)
            return u.child_by_field_name("value") if u is not None and u.type == "map_type" else self.element(inner)
        return None

    def _literal_type(self, body: ts.Node) -> ts.Node | None:
        p = body.parent
        if p is not None and p.type == "composite_literal":
            return p.child_by_field_name("type")
        return self._element_type(p) if p is not None and p.type == "literal_element" else None

    def _element_type(self, el: ts.Node) -> ts.Node | None:
        """The type of a composite literal's element (a key's, a value's) by its literal's type."""
        p = el.parent
        if p is not None and p.type == "keyed_element":
            body = p.parent
            kind = self._literal_type(body) if body is not None else None
            u = self.underlying(kind)
            if u is None or not p.named_children:
                return None
            if u.type == "map_type":
                return u.child_by_field_name("key" if el == p.named_children[0] else "value")
            if el == p.named_children[0]:
                return None
            return self.field(kind, node_text(p.named_children[0])) if u.type == "struct_type" else self.element(kind)
        if p is None or p.type != "literal_value":
            return None
        kind = self._literal_type(p)
        index = [k for k in p.named_children if k.type in ("literal_element", "keyed_element")].index(el)
        return self.field(kind, index) if (u := self.underlying(kind)) is not None and u.type == "struct_type" \
            else self.element(kind)

    def expected(self, n: ts.Node, depth: int = 0) -> ts.Node | None:
        """The type the place of the expression ``n`` gives it, where it is known."""
        p = n.parent
        if p is None or depth > 4:
            return None
        if p.type == "literal_element":
            return self._element_type(p)
        if p.type == "argument_list" and p.parent is not None:
            args, name = [a for a in p.named_children if a.type != "comment"], _callee(p.parent)
            i = args.index(n)
            if name == PH:
                return self.element(self.list_type(p.parent))
            if name in self.funcs:
                params = self.funcs[name][0]
                return params[i] if i < len(params) else None
            if _EQUALITY.match(name):
                known = [t for a in args if a != n and (t := self.type_of(a)) is not None and t.type != "pointer_type"]
                return known[0] if known else None
        if p.type == "binary_expression" and node_text(p.child_by_field_name("operator")) in ("==", "!="):
            other = p.child_by_field_name("right" if n == p.child_by_field_name("left") else "left")
            return self.type_of(other) if other is not None else None
        if p.type == "expression_list" and p.parent is not None:
            return self._assigned(p, p.named_children.index(n), depth)
        return None

    def _assigned(self, values: ts.Node, i: int, depth: int) -> ts.Node | None:
        """The type of the ``i``th value of a declaration, an assignment or a return statement."""
        g = values.parent
        if g is None:
            return None
        if g.type == "return_statement":
            fn = g.parent
            while fn is not None and fn.type not in _FUNCS:
                fn = fn.parent
            results = _signature(fn)[1] if fn is not None else []
            return results[i] if i < len(results) else None
        if g.type == "var_spec":
            if (kind := g.child_by_field_name("type")) is not None:
                return kind
            names = g.children_by_field_name("name")
        elif g.type in ("short_var_declaration", "assignment_statement") and values == g.child_by_field_name("right"):
            left = g.child_by_field_name("left")
            names = left.named_children if left is not None else []
        else:
            return None
        if i >= len(names):
            return None
        if g.type == "assignment_statement" and (kind := self.type_of(names[i])) is not None:
            return kind
        if names[i].type != "identifier":
            return None
        uses = [u for u in _nodes(self.root, frozenset({"identifier"}))
                if node_text(u) == node_text(names[i]) and u.start_byte > names[i].start_byte]
        return next((t for u in uses if (t := self.expected(u, depth + 1)) is not None), None)

    def list_type(self, ph: ts.Node) -> ts.Node | None:
        """The type a placeholder's list is written in: a slice or array type, else None."""
        if ph.id not in self.found:
            self.found[ph.id] = None  # a cycle finds nothing
            kind = self.expected(ph)
            u = self.underlying(kind)
            self.found[ph.id] = kind if u is not None and u.type in _LISTS else None
        return self.found[ph.id]


def _written(ph: ts.Node, types: _Types, edits: list[tuple[int, int, bytes]], elided: bool) -> bool:
    """Edits writing the placeholder ``ph`` as its type's composite literal (``elided``: with its
    type left out); False, with no edits, when it or a list inside it has no type."""
    kind, args, fn = types.list_type(ph), ph.child_by_field_name("arguments"), ph.child_by_field_name("function")
    u = types.underlying(kind)
    length = u.child_by_field_name("length") if u is not None and u.type == "array_type" else None
    items = [a for a in args.named_children if a.type != "comment"] if args is not None else []
    if kind is None or args is None or fn is None or (length is not None and node_text(length) != str(len(items))):
        return False  # no type, or an array's length the list does not have (``[1]`` for ``[2]int``)
    mine: list[tuple[int, int, bytes]] = []
    string = node_text(types.underlying(types.element(kind))) == "string"
    for a in items:
        if a.type == "call_expression" and _callee(a) == PH and not _written(a, types, mine, True):
            return False
        if a.type == "rune_literal" and string:
            mine.append((a.start_byte, a.end_byte, ('"' + node_text(a)[1:-1].replace('"', '\\"') + '"').encode()))
    head = b"{" if elided else (kind.text or b"") + b"{"
    edits += [(fn.start_byte, args.start_byte + 1, head), *mine, (args.end_byte - 1, args.end_byte, b"}")]
    return True


def typed_lists(tests: str, program: str = "") -> str:
    """``tests`` with each Python list Go cannot read written as the composite literal of the type
    its place gives it (unchanged where there is none)."""
    spans, quoted = _lists(tests) if "[" in tests else ([], [])
    if not spans:
        return tests
    root, data, skip, tail = _parsed(_placeheld(tests, spans, quoted))
    types = _Types(root, program)
    edits: list[tuple[int, int, bytes]] = []
    phs = [n for n in _nodes(root, frozenset({"call_expression"})) if _callee(n) == PH]
    for ph in phs:  # the outermost lists (a list inside one is written with it)
        if ph.parent is None or ph.parent.parent is None or _callee(ph.parent.parent) != PH:
            _written(ph, types, edits, False)
    if not edits:
        return tests
    done = {s for s, _, _ in edits}
    for ph in phs:  # the lists left as written
        fn, args = ph.child_by_field_name("function"), ph.child_by_field_name("arguments")
        if fn is not None and args is not None and fn.start_byte not in done:
            edits += [(fn.start_byte, args.start_byte + 1, b"["), (args.end_byte - 1, args.end_byte, b"]")]
    if any(s < skip for s, _, _ in edits):
        return tests
    for start, end, text in sorted(edits, reverse=True):
        data = data[:start] + text + data[end:]
    return data[skip:len(data) - tail].decode(errors="replace")
