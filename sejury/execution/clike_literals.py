"""Java and C++ literal arguments as Python values, for S5-fuzz's seeds in those languages.

S5's tests call the problem's function with values written the language's way: ``Problem.f(new
ArrayList<>(Arrays.asList(1L, -2L)), "a\\n", 1.5f)``, ``f(std::vector<long>({1, -2}), {3, 4},
std::string("x"))``.  They are read here with tree-sitter's Java and C++ grammars (CodeBLEU
brings them), as plain values: lists (``Arrays.asList``, ``List.of``, ``new int[]{...}``, a brace
list, ``std::vector<T>{...}``), sets, maps (``Map.of``, ``std::map<K, V>{{k, v}}``), tuples
(``Pair.with``, ``std::make_tuple``), ``Optional``/``std::optional`` (``None`` when empty),
numbers (suffixes dropped), strings, characters and booleans; a call with any other argument (a
variable, an expression) is skipped.  The values are written back by the parameter types of the
signature (``typed_literals``), so the type a test wrote a value in never matters.  Go's literals
too (``[]int{1, -2}``, ``map[string]int{"a": 1}``, raw strings, runes, ``nil``, conversions such as
``float64(3)``), from S5's tests and from the examples in a Go problem's doc comment.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import re
from typing import TYPE_CHECKING, Any

from sejury.execution import languages
from sejury.execution.js_literals import NotLiteral
from sejury.execution.languages._parsers import node_text, parser

if TYPE_CHECKING:  # the parser loads with its first use (the jurors' modules import this one)
    import tree_sitter as ts

Args = tuple[tuple[Any, ...], tuple[tuple[str, Any], ...]]

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "\\": "\\", "'": "'", '"': '"',
            "?": "?", "a": "\a", "v": "\v", "s": " "}
_ESCAPE = re.compile(r"\\(u+[0-9a-fA-F]{4}|x[0-9a-fA-F]+|[0-7]{1,3}|.)", re.S)
_LISTS = {"asList", "newArrayList", "Stream"}  # Arrays.asList, Stream.of, Lists.newArrayList
_SEQUENCES = {"vector", "list", "deque", "array", "ArrayList", "LinkedList", "List", "Vector", "ArrayDeque"}
_SETS = {"set", "unordered_set", "HashSet", "TreeSet", "LinkedHashSet", "Set"}
_MAPS = {"map", "unordered_map", "HashMap", "TreeMap", "LinkedHashMap", "Map"}
_TUPLES = {"tuple", "pair", "make_tuple", "make_pair", "Pair", "Triplet", "Quartet"}


def parse(text: str, language: str) -> ts.Node:
    """The syntax tree of ``text`` (a fragment made a file first, where the language says how:
    Go's is read inside a function of a package, ``Language.fragment_file``)."""
    lang = languages.get(language)
    if lang is not None and lang.fragment_file is not None:
        text = lang.fragment_file(text)
    return parser(language).parse(text.encode()).root_node


def seed_calls(tests: str, function: str, language: str) -> list[Args]:
    """The literal arguments of every call of ``function`` in ``tests`` (``f(...)``,
    ``Problem.f(...)``, ``new Solution().f(...)``, ``s.f(...)``), in order, duplicates kept.  A
    variable given a literal before the call stands for that value (``ArrayList<Integer> l = new
    ArrayList<>(Arrays.asList(5, 3)); assert unique(l)...``, ``arr := []int{1, 2}``), as the last
    assignment before the call in the text left it."""
    found: list[Args] = []
    env: dict[str, Any] = {}
    token = _ENV.set(env)
    try:
        stack = [parse(tests, language)]
        while stack:  # in the text's order
            node = stack.pop()
            for name, bound in _bindings(node, language):
                try:
                    env[name] = value(bound, language) if bound is not None else _UNSET
                except (NotLiteral, ValueError, RecursionError):
                    env[name] = _UNSET
            arguments = _called(node, function)
            if arguments is not None:
                with contextlib.suppress(NotLiteral, ValueError, RecursionError):
                    args = tuple(value(a, language) for a in arguments.named_children if "comment" not in a.type)
                    found.append((args, ()))
            stack.extend(reversed(node.children))
    finally:
        _ENV.reset(token)
    return found


_UNSET = object()  # a variable whose value is not a literal: never an input
_ENV: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar("sejury_literal_env")
_SCALAR_TYPES = {"primitive_type", "sized_type_specifier", "integral_type", "floating_point_type", "boolean_type"}


def _bindings(node: ts.Node, language: str) -> list[tuple[str, ts.Node | None]]:
    """The variables ``node`` gives a value (declarations and plain assignments), with the value's
    node (None: declared with no value)."""
    kind = node.type
    if kind in ("variable_declarator", "init_declarator"):  # Java; C++
        name = node.child_by_field_name("name" if kind == "variable_declarator" else "declarator")
        bound = node.child_by_field_name("value")
        if kind == "init_declarator" and bound is not None and bound.type == "initializer_list" and (
                node.parent is not None and (t := node.parent.child_by_field_name("type")) is not None
                and t.type in _SCALAR_TYPES and bound.named_child_count == 1):
            bound = bound.named_children[0]  # long k{3}: a scalar, not a list
        return [(node_text(name), bound)] if name is not None and name.type == "identifier" else []
    if kind == "assignment_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        op = node.child_by_field_name("operator")
        plain = op is None or node_text(op) == "="
        return [(node_text(left), right if plain else None)] if left is not None and left.type == "identifier" else []
    if kind in ("short_var_declaration", "assignment_statement", "var_spec"):  # Go
        names = (node.child_by_field_name("left") if kind != "var_spec" else None)
        values = node.child_by_field_name("right" if kind != "var_spec" else "value")
        lefts = names.named_children if names is not None else node.children_by_field_name("name")
        rights = values.named_children if values is not None else []
        if kind == "assignment_statement" and node_text(node.child_by_field_name("operator") or node).strip() != "=":
            rights = []
        return [(node_text(n), rights[i] if len(rights) == len(lefts) else None)
                for i, n in enumerate(lefts) if n.type == "identifier"]
    return []


def _called(node: ts.Node, function: str) -> ts.Node | None:
    """The argument list when ``node`` is a call of ``function``, else None (the node's type is the
    grammar's: Java's ``method_invocation``, C++'s and Go's ``call_expression``)."""
    if node.type == "method_invocation":
        name = node.child_by_field_name("name")
        return node.child_by_field_name("arguments") if name is not None and node_text(name) == function else None
    if node.type == "call_expression":
        callee = node.child_by_field_name("function")
        if callee is not None and callee.type in ("field_expression", "selector_expression"):
            callee = callee.child_by_field_name("field")
        if callee is not None and node_text(callee).rsplit("::", 1)[-1] == function:
            return node.child_by_field_name("arguments")
    return None


def _type_name(node: ts.Node | None) -> str:
    """``std::vector<long>`` -> ``vector``; ``ArrayList<>`` -> ``ArrayList``; ``Arrays.asList`` ->
    ``asList``."""
    text = re.sub(r"<.*", "", node_text(node) if node is not None else "", flags=re.S)
    return re.split(r"::|\.", text.strip())[-1].strip()


def value(node: ts.Node, language: str) -> Any:
    """The Python value of a literal node (or of a variable bound to one before, while
    ``seed_calls`` reads); ``NotLiteral`` for anything else."""
    kind = node.type
    if kind == "identifier":
        bound = _ENV.get({}).get(node_text(node), _UNSET)
        if bound is _UNSET:
            raise NotLiteral(kind)
        return copy.deepcopy(bound)
    if kind in ("decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal",
                "decimal_floating_point_literal", "number_literal", "int_literal", "float_literal"):
        return _number(node_text(node))
    if kind in ("string_literal", "character_literal", "char_literal", "interpreted_string_literal", "rune_literal"):
        return _string(node_text(node), kind not in ("string_literal", "interpreted_string_literal"))
    if kind == "raw_string_literal":
        return node_text(node)[1:-1].replace("\r", "")
    if kind == "nil":
        return None
    if kind == "composite_literal":  # Go: []int{1, 2}, map[string]int{"a": 1}, [][]int{{1}}
        body = node.child_by_field_name("body")
        if body is None:
            raise NotLiteral(kind)
        return _go_body(body, language)
    if kind == "concatenated_string":
        return "".join(_string(node_text(c), False) for c in node.named_children if c.type == "string_literal")
    if kind in ("true", "false"):
        return kind == "true"
    if kind == "null_literal":
        return None
    if kind == "unary_expression":
        op, arg = node.child_by_field_name("operator"), node.child_by_field_name("argument") or (
            node.child_by_field_name("operand"))
        sign = node_text(op) if op is not None else ""
        inner = value(arg, language) if arg is not None and sign in ("-", "+") else None
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner if sign == "-" else inner
        raise NotLiteral(kind)
    if kind in ("parenthesized_expression", "cast_expression"):
        inner_node = node.child_by_field_name("value") or (node.named_children[-1] if node.named_children else None)
        if inner_node is None:
            raise NotLiteral(kind)
        return value(inner_node, language)
    if kind in ("array_initializer", "initializer_list"):
        return [value(c, language) for c in node.named_children if "comment" not in c.type]
    if kind == "array_creation_expression":
        init = node.child_by_field_name("value")
        if init is None:
            raise NotLiteral(kind)
        return value(init, language)
    if kind == "qualified_identifier" and node_text(node).replace(" ", "") == "std::nullopt":
        return None
    if kind == "method_invocation":  # List.of / Set.of / Map.of / Optional.of are told apart by their class
        name, owner = _type_name(node.child_by_field_name("name")), _type_name(node.child_by_field_name("object"))
        return _built(owner if name in ("of", "copyOf") and owner else name, node.child_by_field_name("arguments"),
                      language)
    if kind == "object_creation_expression":
        return _built(_type_name(node.child_by_field_name("type")), node.child_by_field_name("arguments"), language)
    conversions = _conversions(language) if kind == "call_expression" else None
    if conversions is not None:  # a conversion: Go's float64(3), int64(-1), string("x")
        args = node.child_by_field_name("arguments")
        callee = node_text(node.child_by_field_name("function") or node)
        if args is None or args.named_child_count != 1 or not conversions.fullmatch(callee):
            raise NotLiteral(kind)
        return value(args.named_children[0], language)
    if kind == "call_expression":
        return _built(_type_name(node.child_by_field_name("function")), node.child_by_field_name("arguments"),
                      language)
    if kind == "compound_literal_expression":
        return _built(_type_name(node.child_by_field_name("type")), node.child_by_field_name("value"), language,
                      braced=True)
    raise NotLiteral(kind)


def _conversions(language: str) -> re.Pattern[str] | None:
    lang = languages.get(language)
    return lang.conversions if lang is not None else None


def _go_body(body: ts.Node, language: str) -> Any:
    """A Go ``literal_value``: a list, or a map when its elements are keyed (``{"a": 1}``)."""
    elements = [c for c in body.named_children if "comment" not in c.type]
    if elements and all(e.type == "keyed_element" for e in elements):
        pairs = [[_go_element(x, language) for x in e.named_children] for e in elements]
        if not all(len(p) == 2 for p in pairs):
            raise NotLiteral("keyed_element")
        return {k: v for k, v in pairs}
    if any(e.type == "keyed_element" for e in elements):
        raise NotLiteral("keyed_element")
    return [_go_element(e, language) for e in elements]


def _go_element(node: ts.Node, language: str) -> Any:
    inner = node.named_children[0] if node.type == "literal_element" and node.named_children else node
    return _go_body(inner, language) if inner.type == "literal_value" else value(inner, language)


def _built(name: str, args: ts.Node | None, language: str, *, braced: bool = False) -> Any:
    """The value a constructor or factory call builds from literal arguments (``name`` is the
    type, or the factory: ``asList``, ``with``, ``make_tuple``, ``Map`` for ``Map.of``)."""
    items = [value(c, language) for c in args.named_children if "comment" not in c.type] if args else []
    # T(...) copying one container (std::vector<long>({1, 2}), new ArrayList<>(Arrays.asList(...))); T{...} lists
    copies = name in _SEQUENCES | _SETS | _MAPS and len(items) == 1 and isinstance(items[0], (list, set, dict))
    if copies and not braced:
        items = list(items[0].items()) if isinstance(items[0], dict) else list(items[0])  # a copy of one container
    if name in _LISTS | _SEQUENCES | {"emptyList"}:
        return list(items)
    if name in _SETS | {"emptySet"}:
        return set(items)
    if name in _MAPS | {"ofEntries", "emptyMap"}:
        if all(isinstance(p, (list, tuple)) and len(p) == 2 for p in items):
            return {k: v for k, v in items}
        if name == "Map" and len(items) % 2 == 0:  # Map.of(k1, v1, k2, v2)
            return dict(zip(items[::2], items[1::2], strict=True))
        raise NotLiteral(name)
    if name in _TUPLES | {"with", "entry"}:
        return tuple(items)
    if name == "string" and len(items) == 1 and isinstance(items[0], str):
        return items[0]
    if name in ("optional", "Optional", "ofNullable") and len(items) <= 1:
        return items[0] if items else None
    if name == "empty" and not items:
        return None
    raise NotLiteral(name)


def _number(text: str) -> int | float:
    text = text.replace("_", "").replace("'", "")
    sign, text = (-1, text[1:]) if text.startswith("-") else (1, text.removeprefix("+"))
    if re.match(r"^0[xX]", text):
        return sign * int(re.sub(r"[uUlL]+$", "", text), 16)
    if re.match(r"^0[bB]", text):
        return sign * int(re.sub(r"[uUlL]+$", "", text), 2)
    body = re.sub(r"[uUlLfFdD]+$", "", text)
    if re.fullmatch(r"\d+", body):
        return sign * (int(body, 8) if len(body) > 1 and body.startswith("0") else int(body))
    try:
        return sign * float(body)
    except ValueError as exc:
        raise NotLiteral(text) from exc


def _string(text: str, char: bool) -> str:
    quote = "'" if char else '"'
    start = text.find(quote)
    if start < 0 or len(text) < start + 2 or text[-1] != quote or text[:start] not in ("", "L", "u8", "u", "U"):
        raise NotLiteral(text)  # raw strings and the like
    out = _ESCAPE.sub(_unescape, text[start + 1:-1])
    if char and len(out) != 1:
        raise NotLiteral(text)
    return out


def _unescape(m: re.Match[str]) -> str:
    code = m.group(1)
    if code[0] == "u":
        return chr(int(code.lstrip("u"), 16))
    if code[0] == "x":
        return chr(int(code[1:], 16) % 0x110000)
    if code[0] in "01234567":
        return chr(int(code, 8))
    if code in _ESCAPES:
        return _ESCAPES[code]
    raise NotLiteral("\\" + code)
