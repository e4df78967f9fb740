"""Reading a Java program (its classes' methods, their return types) and repairing, against it, the
slips small models make in Java tests before they are compiled: a call as the program does not
define it, ``Arrays.asList(...)`` where an ``ArrayList`` is taken, ``==`` between objects."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from sejury.execution.languages import _clike

PACKAGE = re.compile(r"^[ \t]*package\s+[\w.]+\s*;", re.M)
CLASS = re.compile(r"^[ \t]*(?:public\s+|final\s+|abstract\s+)*class\s+(\w+)", re.M)
_METHOD = re.compile(r"^\s*([\w<>\[\],.?\s]+?)\s(\w+)\s*\(")
# words before a name and a ``(`` that make no method: a statement's, or a nested type's (``record R(int a)
# {}`` is a record, not a method ``R`` returning ``record``: its stub did not compile, nor the tests)
NOT_TYPES = {"return", "new", "else", "throw", "record", "enum", "interface", "class"}
# a type, its type parameters, a superclass or interfaces, as the stubs copy them: nothing else
SAFE = re.compile(r"[\w\s.,<>\[\]?&]*")


def safe(*parts: str | None) -> bool:
    return all(p is None or SAFE.fullmatch(p) is not None for p in parts)


def _params(text: str) -> list[tuple[str, str]]:
    """A Java parameter list as (type, name) pairs (commas inside <> kept); [] where one is not a
    plain type and name (``SAFE``)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text + ","):
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        elif ch == "," and depth == 0:
            p = re.sub(r"\bfinal\s+", "", text[start:i].strip())
            start = i + 1
            if p:
                m = re.match(r"^(.*\S)\s+(\w+)$", p)
                if m is None or not safe(m.group(1)):
                    return []
                out.append((m.group(1), m.group(2)))
    return out


def read_params(text: str) -> list[tuple[str, str]] | None:
    """``_params``, or None where the list is not empty but cannot be read."""
    found = _params(text)
    return None if not found and text.strip() else found


class Method(NamedTuple):
    cls: str
    static: bool


def methods_of(program: str) -> dict[str, Method]:
    """The methods of the program's top-level classes: name -> its class and whether it is static
    (MultiPL-E's ``class Problem { public static ... }``, HumanEval-X's ``class Solution { public
    int f(...) }``)."""
    found: dict[str, Method] = {}
    for cls, method in _declared(program):
        if method.group(2) not in (cls, "main"):
            found.setdefault(method.group(2), Method(cls, "static" in method.group(1).split()))
    return found


def _declared(program: str) -> Iterator[tuple[str, re.Match[str]]]:
    """Each method declared at the top of a top-level class: (the class, the declaration's match)."""
    for m in CLASS.finditer(program):
        body = _clike.block_bodies(program[m.start():], re.compile(r"\{"))[:1]
        depth = 0
        for line in (body[0] if body else "").splitlines():
            d = depth
            depth += _clike.brace_balance(line)
            method = _METHOD.match(line) if d == 0 else None
            if method and not NOT_TYPES & set(method.group(1).split()):
                yield m.group(1), method


def fix_calls(unit: str, methods: dict[str, Method]) -> str:
    """Calls as the program defines them: ``Solution.f(x)`` -> ``new Solution().f(x)`` for an
    instance method, and a bare ``f(x)`` -> ``Problem.f(x)`` (or ``new Solution().f(x)``): both
    common slips of a model that sees only the method."""
    for name, m in methods.items():
        target = f"{m.cls}.{name}(" if m.static else f"new {m.cls}().{name}("
        if not m.static:
            unit = re.sub(rf"(?<![\w.]){m.cls}\.{name}\s*\(", target, unit)
        unit = re.sub(rf"(?<![\w.]){name}\s*\(", target, unit)
    return unit


_LIST_FACTORIES = {("Arrays", "asList"), ("List", "of"), ("java.util.Arrays", "asList"), ("java.util.List", "of")}


def wrap_list_arguments(code: str) -> str:
    """``Arrays.asList(...)`` or ``List.of(...)`` given as an argument of a method call becomes
    ``new ArrayList<>(Arrays.asList(...))``.  The benchmarks' Java signatures (and the helpers models
    write around them) take ``ArrayList<T>``, which a ``List`` does not convert to, so
    ``testUnique(Arrays.asList(5), ...)`` does not compile: the slip that made most of the 1.5B
    model's Java tests fail on the reference.  An ``ArrayList`` is a ``List`` with the same
    ``equals``, so where a ``List`` was fine it still is; a constructor's argument
    (``new ArrayList<>(Arrays.asList(...))``) is left as it is.  Read with tree-sitter's Java grammar,
    so text in strings and comments is never touched."""
    if "asList" not in code and "List.of" not in code:
        return code
    from sejury.execution.clike_literals import parse

    raw = code.encode()
    inserts: list[tuple[int, bytes]] = []
    stack = [parse(code, "java")]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type != "method_invocation" or node.parent is None or node.parent.type != "argument_list":
            continue
        owner = node.parent.parent
        obj, name = node.child_by_field_name("object"), node.child_by_field_name("name")
        if (owner is None or owner.type != "method_invocation" or obj is None or name is None
                or (raw[obj.start_byte:obj.end_byte].decode(), raw[name.start_byte:name.end_byte].decode())
                not in _LIST_FACTORIES):
            continue
        inserts += [(node.start_byte, b"new ArrayList<>("), (node.end_byte, b")")]
    for at, text in sorted(inserts, key=lambda x: x[0], reverse=True):
        raw = raw[:at] + text + raw[at:]
    return raw.decode()


_VALUE_TYPES = {"int", "long", "short", "byte", "char", "boolean", "float", "double", "void", "var",
                "Integer", "Long", "Short", "Byte", "Character", "Boolean", "Float", "Double"}


def _object_type(type_text: str) -> bool:
    """A type ``==`` compares by identity: not a primitive, not a boxed number (``==`` with a
    primitive unboxes it), not an array (``Objects.equals`` would not look inside one either)."""
    t = type_text.strip()
    return bool(t) and t not in _VALUE_TYPES and not t.endswith("]")


def value_equality(code: str, returns: dict[str, str]) -> str:
    """``a == b`` (and ``!=``) between objects becomes ``java.util.Objects.equals(a, b)``: Java's
    ``==`` on a list or a string asks whether both are the same object, so
    ``assert sortedListSum(...) == new ArrayList<>(Arrays.asList("aa"))`` fails on every program,
    the reference too, and a suite of such tests was thrown away whole.  An operand counts as an
    object when it is a ``new`` expression, a string literal, a call of a method whose declared
    return type is an object (``returns``: name -> return type, from the program), or a variable
    the text declares with such a type; ``null`` on either side keeps ``==``.  Read with
    tree-sitter's Java grammar."""
    if "==" not in code and "!=" not in code:
        return code
    from sejury.execution.clike_literals import parse

    raw = code.encode()

    def text(node: Any) -> str:
        return raw[node.start_byte:node.end_byte].decode()

    root = parse(code, "java")
    declared: dict[str, str] = {}
    nodes, stack = [], [root]
    while stack:
        node = stack.pop()
        nodes.append(node)
        stack.extend(node.children)
        if node.type in ("local_variable_declaration", "formal_parameter", "field_declaration"):
            kind = node.child_by_field_name("type")
            for d in [node, *node.named_children]:
                name = d.child_by_field_name("name") if d.type in ("variable_declarator", "formal_parameter") else None
                if kind is not None and name is not None:
                    declared[text(name)] = text(kind)

    def is_object(node: Any) -> bool:
        while node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        if node.type in ("object_creation_expression", "string_literal"):
            return True
        if node.type == "method_invocation":
            name = node.child_by_field_name("name")
            args = node.child_by_field_name("arguments")
            if name is not None and text(name) == "sejury_rec" and args is not None and args.named_children:
                return is_object(args.named_children[-1])  # S5-diff's recorder returns its last argument
            return name is not None and _object_type(returns.get(text(name), ""))
        return node.type == "identifier" and _object_type(declared.get(text(node), ""))

    edits: list[tuple[int, int, str]] = []
    for node in nodes:
        if node.type != "binary_expression":
            continue
        left, right, op = node.child_by_field_name("left"), node.child_by_field_name("right"), \
            node.child_by_field_name("operator")
        if left is None or right is None or op is None or text(op) not in ("==", "!="):
            continue
        if "null_literal" in (left.type, right.type) or not (is_object(left) or is_object(right)):
            continue
        call = f"java.util.Objects.equals({text(left)}, {text(right)})"
        edits.append((node.start_byte, node.end_byte, call if text(op) == "==" else "!" + call))
    kept: list[tuple[int, int, str]] = []
    for start, end, new in sorted(edits, key=lambda e: (e[0], -e[1])):  # outermost first; inner ones dropped
        if not kept or start >= kept[-1][1]:
            kept.append((start, end, new))
    for start, end, new in reversed(kept):
        raw = raw[:start] + new.encode() + raw[end:]
    return raw.decode()


def returns_of(program: str) -> dict[str, str]:
    """Each method's declared return type (name -> type), read like ``methods_of``."""
    found: dict[str, str] = {}
    for _, method in _declared(program):
        words = [w for w in re.split(r"\s+(?![^<]*>)", method.group(1).strip())
                 if w not in ("public", "private", "protected", "static", "final", "synchronized")]
        if words:
            found.setdefault(method.group(2), words[-1])
    return found
