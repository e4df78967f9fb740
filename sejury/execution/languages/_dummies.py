"""Each language's trivial bodies for a function (``mutants.dummies``), as its ``Language.dummies``:
given the declared return type (its text; "" when none is declared), (label, body statements) of
one that raises and of those that return a zero value."""

from __future__ import annotations

import re


def _head(returns: str) -> str:
    """The outer type's bare name: ``List[int]`` -> ``List``, ``java.util.Map<K, V>`` -> ``Map``."""
    return re.split(r"[\[<\s]", returns, maxsplit=1)[0].rsplit(".", 1)[-1]


_PY_ZERO = {"int": "0", "float": "0.0", "str": '""', "bool": "False", "list": "[]", "dict": "{}", "tuple": "()",
            "set": "set()"}
_JAVA_ZERO = {"int": "0", "long": "0", "short": "0", "byte": "0", "double": "0", "float": "0", "char": "0",
              "boolean": "false", "String": '""', "Integer": "0", "Long": "0l", "Double": "0.0", "Float": "0.0f",
              "Boolean": "false", "List": "new ArrayList<>()", "ArrayList": "new ArrayList<>()",
              "Map": "new HashMap<>()", "HashMap": "new HashMap<>()", "Optional": "Optional.empty()"}


def python(returns: str) -> list[tuple[str, str]]:
    zero = _PY_ZERO.get(_head(returns).lower(), "0")
    return [("raises", "raise NotImplementedError"), ("returns None", "return None"),
            *([] if zero == "None" else [(f"returns {zero}", f"return {zero}")])]


def javascript(returns: str) -> list[tuple[str, str]]:
    return [("raises", 'throw new Error("not implemented");'), ("returns undefined", "return undefined;"),
            ("returns 0", "return 0;"), ('returns ""', 'return "";'), ("returns []", "return [];")]


def java(returns: str) -> list[tuple[str, str]]:
    head = _head(returns)
    if head == "void":
        return [("raises", 'throw new UnsupportedOperationException("not implemented");'), ("does nothing", "")]
    zero = _JAVA_ZERO.get(head, "null")
    return [("raises", 'throw new UnsupportedOperationException("not implemented");'),
            (f"returns {zero}", f"return {zero};")]


def cpp(returns: str) -> list[tuple[str, str]]:
    if _head(returns) == "void":
        return [("raises", 'throw std::runtime_error("not implemented");'), ("does nothing", "")]
    return [("raises", 'throw std::runtime_error("not implemented");'), ("returns {}", "return {};")]


def go(returns: str) -> list[tuple[str, str]]:
    if not returns:
        return [("raises", 'panic("not implemented")'), ("does nothing", "")]
    if returns.startswith("("):
        return [("raises", 'panic("not implemented")')]
    return [("raises", 'panic("not implemented")'), ("returns the zero value", f"return *new({returns})")]
