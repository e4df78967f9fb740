"""The readers and writers of literals a ``Language`` names (``read_calls``, ``read_example``,
``render_call``, ``parameters``, ``write_typed``): JavaScript's in ``js_literals``, Java's, C++'s
and Go's in ``clike_literals`` (read) and ``typed_literals`` / ``go_typed`` (written by the parameters' types).
Those modules import this package, so each is imported here with the first use."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sejury.execution.calls import Args
    from sejury.execution.typed_literals import Type


def js_calls(text: str, function: str) -> list[Args]:
    from sejury.execution import js_literals

    return js_literals.seed_calls(text, function)


def js_render(function: str, call: Args) -> str:
    from sejury.execution import js_literals

    return js_literals.render_call(function, call)


def clike_calls(language: str) -> Callable[[str, str], list[Args]]:
    """``clike_literals.seed_calls`` in ``language``."""
    def read(text: str, function: str) -> list[Args]:
        from sejury.execution import clike_literals

        return clike_literals.seed_calls(text, function, language)
    return read


def go_example(call: str, function: str) -> list[Args]:
    """A Go problem's example: Go's own literals (``[]int{1, 2}``), else Python's (as the
    benchmarks write most examples)."""
    from sejury.execution import calls, clike_literals

    return clike_literals.seed_calls(call, function, "go") or calls.python_call(call, function)


def c_parameters(problem: str, function: str) -> list[tuple[Type, str]] | None:
    from sejury.execution import typed_literals

    return typed_literals.c_parameters(problem, function)


def go_parameters(problem: str, function: str) -> list[tuple[Type, str]] | None:
    from sejury.execution import go_typed

    return go_typed.go_parameters(problem, function)


def java_value(value: Any, kind: Type) -> str | None:
    from sejury.execution import typed_literals

    return typed_literals.java_value(value, kind)


def cpp_value(value: Any, kind: Type) -> str | None:
    from sejury.execution import typed_literals

    return typed_literals.cpp_value(value, kind)


def go_value(value: Any, kind: Type) -> str | None:
    from sejury.execution import go_typed

    return go_typed.go_value(value, kind)


def go_escape(ch: str) -> str | None:
    """A control character in a Go string literal, as a ``\\xNN`` escape."""
    return f"\\x{ord(ch):02x}" if ord(ch) < 32 or ord(ch) == 127 else None


def go_file(text: str) -> str:
    """A Go fragment as a file: inside a function of a package (a whole function: in the package)."""
    if re.search(r"^[ \t]*package\s", text, re.M):
        return text
    return "package p\nfunc _() {\n" + text + "\n}\n" if "func " not in text else "package p\n" + text
