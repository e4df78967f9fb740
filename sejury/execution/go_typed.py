"""Go's part of ``typed_literals``: a Go function's parameters read with Go's grammar, and Python
values written as Go expressions of a parameter's declared type (``[1, -2]`` for ``[]int`` is
``[]int{1, -2}``).  An ``interface{}`` (or ``any``) parameter takes the value with the dynamic type
Go gives an untyped constant: ``1`` an ``int``, ``2.5`` a ``float64``, ``"x"`` a ``string``, None
``nil``; a list is a ``[]interface{}``, a dict a ``map[interface{}]interface{}`` (HumanEval-X's
``CompareOne(a, b interface{})``, ``CheckDictCase(dict map[interface{}]interface{})``).  A value
with no rule gives no call (that input is left out, never guessed)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from sejury.execution.languages._parsers import node_text
from sejury.execution.typed_literals import GO_MAP, GO_SLICE, INT32, INT64, Type, _char, _elements, quoted

if TYPE_CHECKING:  # annotations only (no parser here)
    import tree_sitter as ts

GO_ANY = "interface{}"  # the empty interface, as a ``Type`` name (``any`` is its alias)
_DYNAMIC = (GO_ANY, "any")


def go_parameters(problem: str, function: str) -> list[tuple[Type, str]] | None:
    """``typed_parameters`` of a Go function, read with Go's grammar (``name type``)."""
    from sejury.execution.clike_literals import parse

    found = None
    stack = [parse(problem, "go")]
    while stack:
        node = stack.pop()
        name = node.child_by_field_name("name")
        if node.type == "function_declaration" and name is not None and name.text == function.encode():
            found = node.child_by_field_name("parameters")
        stack.extend(node.children)
    if found is None:
        return None
    params: list[tuple[Type, str]] = []
    for decl in found.named_children:
        type_node = decl.child_by_field_name("type")
        kind = _go_type(type_node) if decl.type == "parameter_declaration" and type_node is not None else None
        if kind is None:
            return None
        params += [(kind, node_text(n)) for n in decl.children_by_field_name("name")]
    return params


def _go_type(node: ts.Node) -> Type | None:
    if node.type in ("type_identifier", "qualified_type"):
        return Type(node_text(node))
    if node.type == "interface_type" and not node.named_children:  # interface{}: no methods
        return Type(GO_ANY)
    if node.type == "slice_type":
        element = node.child_by_field_name("element")
        inner = _go_type(element) if element is not None else None
        return Type(GO_SLICE, (inner,)) if inner else None
    if node.type == "map_type":
        key, val = node.child_by_field_name("key"), node.child_by_field_name("value")
        k, v = (_go_type(key) if key else None), (_go_type(val) if val else None)
        return Type(GO_MAP, (k, v)) if k and v else None
    return None


_GO_INTS = {"int": (-INT64, INT64), "int64": (-INT64, INT64), "int32": (-INT32, INT32), "rune": (-INT32, INT32),
            "int16": (-2 ** 15, 2 ** 15), "int8": (-2 ** 7, 2 ** 7), "uint": (0, 2 * INT64),
            "uint64": (0, 2 * INT64), "uint32": (0, 2 * INT32), "uint8": (0, 2 ** 8), "byte": (0, 2 ** 8)}
_ANY_SLICE, _ANY_MAP = Type(GO_SLICE, (Type(GO_ANY),)), Type(GO_MAP, (Type(GO_ANY), Type(GO_ANY)))


def go_value(value: Any, kind: Type) -> str | None:
    """``value`` as a Go expression of type ``kind``, or None (its ``Language.write_typed``)."""
    name, targs = kind.name, kind.args
    if name in _DYNAMIC:
        return _dynamic(value)
    if name == "bool":
        return ("true" if value else "false") if isinstance(value, bool) else None
    if name == "rune" and isinstance(value, str):
        return _char(value, "go")
    if name in _GO_INTS:
        low, high = _GO_INTS[name]
        return str(value) if isinstance(value, int) and not isinstance(value, bool) and low <= value < high else None
    if name in ("float64", "float32"):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        return repr(float(value)) if ok else None
    if name == "string":
        return quoted(value, "go") if isinstance(value, str) else None
    if name == GO_SLICE:
        elements = _elements(value, False)
        items = [go_value(v, targs[0]) for v in elements] if elements is not None else [None]
        return None if None in items else f"{kind.text()}{{{', '.join(map(str, items))}}}"
    if name == GO_MAP and isinstance(value, dict):
        if targs[0].name in _DYNAMIC and not all(_scalar(k) for k in value):
            return None  # a list held as a key: Go cannot hash it
        entries = [(go_value(k, targs[0]), go_value(v, targs[1])) for k, v in value.items()]
        if any(k is None or v is None for k, v in entries):
            return None
        return f"{kind.text()}{{{', '.join(f'{k}: {v}' for k, v in entries)}}}"
    return None


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


# the type Go gives an untyped constant of each Python kind (bool before int: a bool is an int)
_DEFAULT_TYPES: tuple[tuple[type | tuple[type, ...], Type], ...] = (
    (bool, Type("bool")), (int, Type("int")), (float, Type("float64")), (str, Type("string")),
    ((list, tuple), _ANY_SLICE), (dict, _ANY_MAP))


def _dynamic(value: Any) -> str | None:
    """``value`` held by an ``interface{}``: the literal of its default type, written as
    ``go_value`` writes that type (a float keeps its point: 2.0, not 2)."""
    if value is None:
        return "nil"
    kind = next((k for py, k in _DEFAULT_TYPES if isinstance(value, py)), None)
    return go_value(value, kind) if kind is not None else None
