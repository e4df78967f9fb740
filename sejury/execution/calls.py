"""The calls of a problem's function, as data: read from S5's tests (``seed_calls``) and from the
calls the problem's own text shows (``example_calls``, with the parameters' names), and written back
as a call each language compiles (``call_writer``, ``render_call``).  Inputs are Python values;
Python's and JavaScript's literals are read and written here and in ``js_literals``, Java's, C++'s
and Go's read in ``clike_literals`` and written back by the parameter types in ``typed_literals``.
The fuzzers (``fuzz.py``) mutate what is read here."""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Callable, Iterator
from typing import Any

from sejury.execution import array_exprs, languages, typed_literals
from sejury.execution.languages import _clike
from sejury.execution.languages._pysource import UNPARSEABLE

Args = tuple[tuple[Any, ...], tuple[tuple[str, Any], ...]]  # positional, keyword (name, value)


def reads_literals(language: str) -> bool:
    """Whether ``language``'s calls are read and written here (its ``Language.literals``): the
    languages the fuzzers, the stated examples and ranking's example inputs judge."""
    lang = languages.get(language)
    return lang is not None and lang.literals


def literal_languages() -> tuple[str, ...]:
    """The registered languages whose calls are read and written here, in the registry's order."""
    return tuple(name for name in languages.names() if reads_literals(name))


def typed_calls(language: str) -> bool:
    """Whether ``language``'s calls are written by its parameters' declared types (``Language.parameters``:
    Java's, C++'s, Go's); more of the fuzzers' new inputs fail to fit them, so more are made."""
    lang = languages.get(language)
    return lang is not None and lang.parameters is not None


def seed_calls(tests: str, function: str, language: str = "python", built: bool = False) -> list[Args]:
    """The literal arguments of every call of ``function`` in ``tests``, in order, once each
    (JavaScript's literals are read by ``js_literals``, Java's and C++'s by ``clike_literals``).
    ``built`` (Python): an argument may also be a numpy or pandas value built from literals, there
    or bound to a name before the call (``array_exprs``)."""
    lang = languages.get(language)
    if lang is not None and lang.read_calls is not None:
        return _dedupe(lang.read_calls(tests, function))
    try:
        tree = ast.parse(tests)
    except SyntaxError:
        return _seed_lines(tests, function, built)
    except UNPARSEABLE:  # nested too deep for the parser
        return []
    return _dedupe(_calls(tree, function, built))


def reads_arrays(language: str) -> bool:
    """Whether ``seed_calls(..., built=True)`` reads numpy and pandas values in ``language``'s tests:
    where they are read as Python's literals."""
    lang = languages.get(language)
    return lang is None or lang.read_calls is None


def example_calls(problem: str, function: str, language: str = "python") -> list[Args]:
    """The inputs of ``function`` that the problem's text shows (its examples), in order, once each:

    - calls with literal arguments: ``>>> f([1, 2])`` in a docstring, ``// f('03-11-2000') => true``
      in a comment (each ``f(`` cut at its closing bracket and read as a call of ``language``; the
      signature and prose are not literal calls and are skipped);
    - else, values given to the parameters by name, all of them on one line or on lines in a row:
      ``For lst = [1,2,3] the output should be 14``, ``Input: grid = [[1,2],[3,4]], k = 3``;
    - else, calls of one other name with as many literal arguments as the function has parameters
      (HumanEval's ``sorted_list_sum`` shows ``list_sort(["aa", "a"])``)."""
    params = parameters(problem, function, language)
    found = _literal_calls(problem, function, language)
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), function)
    if not found and snake != function:  # MultiPL-E's Java keeps the Python name in its examples
        found = _literal_calls(problem, snake, language, function)
    if not found and params:
        found = parse_calls([f"{function}({', '.join(v)})" for v in assigned(problem, params)], function, language)
    if not found and params:
        # a name right before its bracket (``list_sort([...``): prose puts a space there (``columns (['a'])``)
        others = {m.group(1) for m in re.finditer(r"(?<![\w$.])([A-Za-z_$][\w$]*)\(", problem)} - {function}
        others -= _known_callables(problem, language)
        named = {name: [c for c in _literal_calls(problem, name, language) if len(c[0]) == len(params)]
                 for name in others}
        named = {name: calls for name, calls in named.items() if calls}
        if len(named) == 1:
            found = next(iter(named.values()))
    return _dedupe(found)


_PY_BUILTINS = frozenset(dir(builtins))
# a name the problem's own code imports or defines (``from datetime import datetime``, ``def helper``,
# ``function helper``, ``func helper``): its calls there are that code's, not examples of the function
_BOUND = re.compile(r"\b(?:def|class|function|func)[ \t]+([A-Za-z_$][\w$]*)"
                    r"|^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+\(?([\w \t,]+)"
                    r"|^[ \t]*import[ \t]+([\w \t,.]+)", re.M)


def _known_callables(problem: str, language: str) -> set[str]:
    """Names whose calls in ``problem`` are not examples of its function under another name: what
    the problem's code imports or defines, and, in Python, the builtins (BigCodeBench's stubs call
    ``datetime(2020, 1, 1)`` and ``range(1, 7)``, which have the arity of its ``task_func``)."""
    names: set[str] = set(_PY_BUILTINS) if language == "python" else set()
    for m in _BOUND.finditer(problem):
        if m.group(1):
            names.add(m.group(1))
        for part in re.split(r"\s*,\s*", (m.group(2) or m.group(3) or "").strip()):
            words = part.split()
            if words:  # ``a as b`` binds b; ``import a.b`` binds a
                names.add(words[-1] if len(words) == 3 and words[1] == "as" else words[0].split(".")[0])
    return names


def _literal_calls(text: str, function: str, language: str, as_name: str | None = None) -> list[Args]:
    calls = []
    for m in re.finditer(rf"(?<![\w$.]){re.escape(function)}\s*\(", text):
        close = _clike.closing(text, m.end() - 1)
        if close > 0:
            calls.append((as_name or function) + text[m.end() - 1:close + 1])
    return parse_calls(calls, as_name or function, language)


def parse_calls(calls: list[str], function: str, language: str) -> list[Args]:
    """Each call's literal arguments, read as ``language`` reads its examples
    (``Language.read_example``: JavaScript's literals, Go's or else Python's); the Java and C++
    problems of the benchmarks write their examples as Python's (``f([1, 2])``), and C++ ones may
    use braces for a list (``f({1, 2})``, ``Language.braced_lists``), read as brackets."""
    lang = languages.get(language)
    read = lang.read_example if lang is not None else None
    braced = lang is not None and lang.braced_lists
    found: list[Args] = []
    for call in calls:
        found += read(call, function) if read is not None else python_call(call, function, braced)
    return found


def python_call(call: str, function: str, braced: bool = False) -> list[Args]:
    """The literal arguments of the call ``call`` of ``function``, read as Python's literals;
    ``braced``: a list in braces (``f({1, 2})``) is first read as brackets."""
    forms = [call.replace("{", "[").replace("}", "]"), call] if braced and "{" in call else [call]
    for form in forms:
        try:
            got = list(_calls(ast.parse(form, mode="eval"), function))
        except UNPARSEABLE:
            continue
        if got:
            return got
    return []


def parameters(problem: str, function: str, language: str = "python") -> list[str]:
    """The parameter names of ``function``'s signature in the problem (Python or JavaScript; Java
    and C++ by ``typed_literals``)."""
    lang = languages.get(language)
    if lang is not None and lang.parameters is not None:
        return [name for _, name in lang.parameters(problem, function) or []]
    m = re.search(rf"(?:\bdef|\bfunction)\s+{re.escape(function)}\s*\(|(?<![\w$.]){re.escape(function)}\s*=\s*"
                  r"(?:async\s*)?(?:function\s*)?\((?=[^()]*\)\s*(?:=>|\{))", problem)
    if m is None:
        return []
    close = _clike.closing(problem, m.end() - 1)
    inside = problem[m.end():close] if close > 0 else ""
    names: list[str] = []
    for part in _clike.split_commas(inside):
        name = re.match(r"\s*([A-Za-z_$][\w$]*)", part)
        if name is None or name.group(1) in ("self", "cls"):
            return [] if name is None else names
        names.append(name.group(1))
    return names


_SCALAR = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\b|True\b|False\b|true\b|false\b|None\b|null\b")


def assigned(problem: str, params: list[str]) -> list[list[str]]:
    """Each run of lines that gives every parameter a literal by name (``name = value`` or
    ``name : value``): the values' texts, in the parameters' order."""
    found: list[list[str]] = []
    current: dict[str, str] = {}
    for line in problem.splitlines():
        hits: dict[str, str] = {}
        for name in params:
            for m in re.finditer(rf"(?<![\w$.]){re.escape(name)}\s*(?:=(?!=)|:(?!:))\s*", line):
                value = literal_at(line, m.end())
                if value is not None:
                    hits.setdefault(name, value)
        if not hits:
            current = {}
            continue
        if params[0] in hits:
            current = {}
        current |= hits
        if all(p in current for p in params):
            found.append([current[p] for p in params])
            current = {}
    return found


def literal_at(text: str, i: int) -> str | None:
    """The text of the literal starting at ``text[i]`` (a bracketed value, a string, a number,
    a boolean, None/null), or None."""
    if i >= len(text):
        return None
    if text[i] in "[({":
        close = _clike.closing(text, i)
        return text[i:close + 1] if close > 0 else None
    if text[i] in "\"'":
        end = _clike.string_end(text, i)
        return text[i:end + 1] if end < len(text) and text[end] == text[i] else None
    m = _SCALAR.match(text, i)
    return m.group(0) if m else None


def _seed_lines(tests: str, function: str, built: bool = False) -> list[Args]:
    """Line by line, when the whole text does not parse (a reply cut off mid-line)."""
    found: list[Args] = []
    for line in tests.splitlines():
        try:
            found += _calls(ast.parse(line.strip()), function, built)
        except UNPARSEABLE:
            continue
    return _dedupe(found)


def _calls(tree: ast.AST, function: str, built: bool = False) -> Iterator[Args]:
    reader = array_exprs.Reader(tree) if built else None
    envs = reader.bindings(tree) if reader is not None else {}

    def value(node: ast.expr, call: ast.Call) -> Any:
        try:
            return ast.literal_eval(node)
        except ValueError:
            got = reader.value(node, envs.get(id(call), {})) if reader is not None else None
            if got is None:
                raise
            return got

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == function:
            try:
                args = tuple(value(a, node) for a in node.args)
                kwargs = tuple((k.arg, value(k.value, node)) for k in node.keywords if k.arg is not None)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
            if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                continue
            yield args, kwargs


def _dedupe(calls: Iterator[Args] | list[Args]) -> list[Args]:
    seen: set[str] = set()
    out = []
    for c in calls:
        key = render_call("f", c)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def call_writer(problem: str, function: str, language: str) -> Callable[[Args], str | None] | None:
    """How an input is written as a call in ``language``: Python's and JavaScript's literals as
    they are; Java's and C++'s by the declared parameter types (None when the signature's types
    do not parse; the writer gives None for an input that does not fit them)."""
    lang = languages.get(language)
    if lang is not None and lang.parameters is not None:
        params = lang.parameters(problem, function)
        if params is None:
            return None
        return lambda call: typed_literals.write_call(function, params, call, language)
    return lambda call: render_call(function, call, language)


def render_call(function: str, call: Args, language: str = "python") -> str:
    """The call as ``language`` writes it (``Language.render_call``), else as Python's."""
    lang = languages.get(language)
    if lang is not None and lang.render_call is not None:
        return lang.render_call(function, call)
    args, kwargs = call
    return f"{function}({', '.join([*map(repr, args), *(f'{k}={v!r}' for k, v in kwargs)])})"
