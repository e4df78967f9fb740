"""The problem's examples with their stated outputs, read as tests: ``iscube(2) ==> False``.

Most benchmark problems show calls of their function *and* what each returns: ``>>> flip_case('Hello')``
with ``'hELLO'`` on the next line, ``specialFilter([15, -73, 14, -15]) => 1``, ``prime_length('Hello')
== True``.  ``calls.example_calls`` reads only the inputs (Ex-fuzz's seeds, answered by the
reference); here the stated output is read too, so the examples are tests written by the problem's
author, usable where there is no reference to answer them (ranking attempts, a single candidate).

Read: a call of the function with literal arguments (``calls.example_calls``'s reading, in the
problem's language; MultiPL-E's Java keeps the Python name), then on the same line an arrow
(``==>``, ``==``, ``=>``, ``->``, ``➞``, ``→``, ``=``, ``returns``, ``should return``, ``should be``,
``is``) and a literal; or, after a doctest prompt (``>>>``) with nothing after the call, a literal
alone on the next line.  The benchmarks write these values as Python's literals in every language
(``True``, ``(1, 2)``, ``'abc'``); JavaScript's and C's ``true``/``false``/``null`` and C++'s braces
are read too.  Anything else (prose, an expression, a value spread over lines) is not an example.

An attempt passes a stated example when the value the harness recorded for that call (``@@V``,
each language's own way of showing it) reads back as the stated value: numbers equal (a float to
six significant digits, as the harnesses show them), sequences element by element (a list, a
tuple, a vector, a Java ``Pair`` alike), maps by their items, strings exactly.  A recorded value
that cannot be read back is no evidence either way (``matches`` gives None).  A problem's example
may be wrong, or misread here: the callers count a stated example only where some attempt or the
reference returns it.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass
from typing import Any

from sejury.execution import languages
from sejury.execution.calls import Args, assigned, literal_at, parameters, parse_calls
from sejury.execution.differential import bare
from sejury.execution.languages import _clike

_ARROW = re.compile(r"\s*(?:#\s*)?(?:={1,3}>?|-+>|➞|→|⟹|\bshould\s+(?:return|be)\b|\breturns?\b|\bis\b|"
                    r"\bgives\b)\s*", re.I)
_PROMPT = re.compile(r"(?:^|\n)[ \t]*(?://+|#+|\*+)?[ \t]*>>>[ \t]*$")
_COMMENT = re.compile(r"^[ \t]*(?://+|#+|\*+)?[ \t]?")
_BARE = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|\b(true|false|null|nullptr|None|undefined)\b')
_AS_PYTHON = {"true": "True", "false": "False", "null": "None", "nullptr": "None", "undefined": "None"}
# what may follow a stated value on its line: its end, or an explanation in brackets or a comment
# (not ``19 - 5 - 6 = 8``: an expression worked out is not the value)
_END = re.compile(r"[ \t]*[.,;]?[ \t]*(?:$|\(|#|//|\b(?:because|since|as)\b)", re.M)


@dataclass(frozen=True)
class Stated:
    """One example: the call's inputs, the output the problem states, and the text it was read from."""

    call: Args
    expected: Any
    text: str


def stated_examples(problem: str, function: str, language: str = "python") -> list[Stated]:
    """The examples of ``function`` in ``problem`` whose output is stated, in order; an input
    shown twice keeps its first statement (two that disagree are both dropped: the problem contradicts itself)."""
    names = [function]
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), function)
    if snake != function:
        names.append(snake)
    found: list[Stated] = []
    for name in names:
        for m in re.finditer(rf"(?<![\w$.]){re.escape(name)}\s*\(", problem):
            close = _clike.closing(problem, m.end() - 1)
            if close < 0:
                continue
            calls = parse_calls([function + problem[m.end() - 1:close + 1]], function, language)
            expected = _output_after(problem, m.start(), close + 1, _braced(language))
            if len(calls) == 1 and expected is not None:
                text, value = expected
                found.append(Stated(calls[0], value, f"{problem[m.start():close + 1]} -> {text}"))
        if found:
            break
    if not found:
        found = _described(problem, function, language)
    return _of_one_kind(_consistent(found), _return_kind(problem, function))


def _braced(language: str) -> bool:
    """Whether the problem may write a list in braces (C++'s ``{1, 2}``, ``Language.braced_lists``)."""
    lang = languages.get(language)
    return lang is not None and lang.braced_lists


_OUTPUT = re.compile(r"\b(?:the\s+)?(?:output|result)\s*(?:should\s+be|will\s+be|is|:)[ \t]*", re.I)
_INPUT = re.compile(r"\binput\s*:", re.I)
_ANY_NAME = re.compile(r"(?:(?<=^)|(?<=,)|(?<=\s))\s*[A-Za-z_]\w*\s*(?:=(?!=)|:(?!:))\s*")


def _described(problem: str, function: str, language: str) -> list[Stated]:
    """Examples described rather than called: an ``Input:`` block (values by name, ``arr = [1, 2],
    k = 3`` or ``grid : [[0, 1]]`` on lines of their own, or by position, ``Input: [4, 2, 3]``) then
    ``Output: v``; or the parameters given by name and the output on one line (``For lst = [1, 2]
    the output should be 5``).  Every parameter must be given."""
    params = parameters(problem, function, language)
    if not params:
        return []
    found, since = [], 0
    for m in _OUTPUT.finditer(problem):
        eol = problem.find("\n", m.end())
        eol = len(problem) if eol < 0 else eol
        segment, since = problem[since:m.start()], eol
        got = _literal(problem[:eol], m.end(), _braced(language))
        if got is None:
            continue
        inputs = list(_INPUT.finditer(segment))
        text = segment[inputs[-1].end():] if inputs else problem[problem.rfind("\n", 0, m.start()) + 1:m.start()]
        named = assigned(text, params)
        if len(named) == 1:
            call = f"{function}({', '.join(named[0])})"
        elif inputs and not named:  # by position; names the signature does not use, in order
            lines = (_COMMENT.sub("", ln, count=1).strip() for ln in text.splitlines())
            call = f"{function}({', '.join(_ANY_NAME.sub('', ln) for ln in lines if ln)})"
        else:
            continue
        calls = parse_calls([call], function, language)
        if len(calls) == 1 and len(calls[0][0]) + len(calls[0][1]) == len(params):
            found.append(Stated(calls[0], got[1], f"{' '.join(text.split())} -> {got[0]}"))
    return found


# the outer name of a declared return type -> the kind of value it holds (others: not judged)
_KINDS = {**dict.fromkeys(("list", "arraylist", "linkedlist", "vector", "deque", "array", "tuple", "pair", "triplet",
                           "quartet", "set", "hashset", "treeset", "sequence", "iterable"), "seq"),
          **dict.fromkeys(("dict", "map", "hashmap", "treemap", "unordered_map", "mapping"), "map"),
          **dict.fromkeys(("bool", "boolean"), "bool"),
          **dict.fromkeys(("str", "string", "char", "character"), "str"),
          **dict.fromkeys(("int", "long", "float", "double", "short", "integer", "number", "size_t", "int64",
                           "float64", "float32", "int32", "uint", "uint64"), "num")}


_MODIFIERS = re.compile(r"^\s*(?:(?:public|private|protected|static|final|inline|constexpr|const|virtual|"
                        r"synchronized|extern)\s+)*")


def _return_kind(problem: str, function: str) -> set[str] | None:
    """The kinds of value ``function``'s declared return type holds (``seq``, ``map``, ``bool``,
    ``str``, ``num``, ``none``), or None where it declares none or one not judged (``auto``, ``Any``)."""
    m = re.search(rf"(?:\bdef|\bfunc)\s+{re.escape(function)}\s*\(", problem)
    if m is not None:  # Python's ``-> T:`` or Go's ``) T {``
        close = _clike.closing(problem, m.end() - 1)
        after = problem[close + 1:close + 200] if close > 0 else ""
        typed = re.match(r"\s*(?:->\s*)?([^:{\n]+?)\s*[:{]", after)
        text = typed.group(1) if typed else ""
    else:  # Java's and C++'s ``T f(``, the type before the name on its line
        prefixes = [p.group(1) for p in re.finditer(rf"^([^\n]*?)[ \t*&]+{re.escape(function)}\s*\(", problem, re.M)
                    if not p.group(1).lstrip().startswith(("//", "/*", "*", "#", ">>>"))
                    and not re.search(r"\breturn\b|[=(;]", p.group(1))]  # a declaration, not a call
        text = _MODIFIERS.sub("", prefixes[0]) if prefixes else ""
    return _type_kinds(text)


def _type_kinds(text: str) -> set[str] | None:
    """The kinds of value a type holds: ``Optional[int]`` {num, none}, ``Union[int, str]`` {num,
    str}, ``std::vector<long>`` {seq}; None where it is not judged."""
    text = text.strip()
    parts = _clike.split_commas(text.replace("|", ","), "<[(", ">])") if "|" in text else [text]
    if len(parts) > 1:
        return _all_of(parts)
    if text.startswith("[]") or text.endswith("[]"):
        return {"seq"}
    outer = re.match(r"[\w:.]+", text)
    if outer is None:
        return None
    name = re.split(r"::|\.", outer.group(0))[-1].lower()
    inner = text[outer.end():].strip()
    args = _clike.split_commas(inner[1:-1], "<[(", ">])") if inner[:1] in "<[" and inner[-1:] in ">]" else []
    if name in ("union", "variant") and args:
        return _all_of(args)
    if name == "optional" and len(args) == 1:
        kind = _type_kinds(args[0])
        return kind | {"none"} if kind is not None else None
    if name in ("none", "nonetype"):
        return {"none"}
    return {_KINDS[name]} if name in _KINDS else None


def _all_of(types: list[str]) -> set[str] | None:
    kinds: set[str] = set()
    for t in types:
        got = _type_kinds(t)
        if got is None:
            return None
        kinds |= got
    return kinds


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "num"
    if isinstance(value, str):
        return "str"
    if isinstance(value, (list, tuple, set, frozenset)):
        return "seq"
    return "map" if isinstance(value, dict) else "none"


def _of_one_kind(found: list[Stated], declared: set[str] | None) -> list[Stated]:
    """Examples whose value fits the declared return type (``tri(1) = 3`` above ``-> List[int]`` is
    a definition in prose, not an example); with no type declared, all of them only when every value
    but None is of one kind."""
    if declared is not None:
        return [s for s in found if _kind(s.expected) in declared]
    return found if len({_kind(s.expected) for s in found} - {"none"}) <= 1 else []


def _output_after(problem: str, start: int, end: int, braces: bool) -> tuple[str, Any] | None:
    """The stated output after a call ``problem[start:end]``: on its line after an arrow, or, after
    a doctest prompt with nothing else on the call's line, alone on the next line."""
    eol = problem.find("\n", end)
    eol = len(problem) if eol < 0 else eol
    rest = problem[end:eol]
    arrow = _ARROW.match(rest)
    if arrow is not None:
        return _literal(rest, arrow.end(), braces)
    line_start = problem.rfind("\n", 0, start) + 1
    if rest.strip() or not _PROMPT.search(problem[max(0, line_start - 1):start]):
        return None
    nxt = problem[eol + 1:problem.find("\n", eol + 1) if problem.find("\n", eol + 1) >= 0 else len(problem)]
    body = _COMMENT.sub("", nxt, count=1).strip()
    if not body or body.startswith(">>>"):
        return None
    got = _literal(body, 0, braces)
    return got if got is not None and len(got[0]) == len(body) else None


def _literal(text: str, at: int, braces: bool) -> tuple[str, Any] | None:
    literal = literal_at(text, at)
    if literal is None or not _END.match(text, at + len(literal)):
        return None
    ok, value = read_value(literal, braces_are_lists=braces)
    if ok and literal.startswith("(") and not isinstance(value, tuple):
        value = (value,)  # ``("Venus")``: a tuple of one, written without its comma
    return (literal, value) if ok else None


def _consistent(found: list[Stated]) -> list[Stated]:
    by_input: dict[str, list[Stated]] = {}
    for s in found:
        by_input.setdefault(repr(s.call), []).append(s)
    out = []
    for group in by_input.values():
        if all(same(group[0].expected, s.expected) for s in group):
            out.append(group[0])
    return out


def read_value(text: str, *, braces_are_lists: bool = False) -> tuple[bool, Any]:
    """A value written as a literal (Python's, or JavaScript's, Java's or C++'s way of showing it)
    as a Python value; ``(False, None)`` when it does not read.  ``braces_are_lists``: C++'s
    ``{1, 2}`` is a vector, not a set."""
    text = bare(text.strip())
    python = _BARE.sub(lambda m: _AS_PYTHON.get(m.group(1) or "", m.group(0)), text)
    forms = [python]
    if "{" in python and ":" not in python:
        lists = python.replace("{", "[").replace("}", "]")  # C++'s braced list
        forms = [lists, python] if braces_are_lists else [python, lists]
    if "=" in python and python.startswith("{"):
        forms.append(re.sub(r"(?<=[\w\"'\]\)])=(?=[\w\"'\[(-])", ": ", python))  # a Java map's {k=v}
    for form in forms:
        try:
            return True, ast.literal_eval(form)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return False, None


def same(expected: Any, got: Any) -> bool:
    """``got`` (read back from a recorded value) is the ``expected`` value, as the module says."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return isinstance(expected, bool) and isinstance(got, bool) and expected == got
    if isinstance(expected, (int, float)) and isinstance(got, (int, float)):
        if isinstance(expected, int) and isinstance(got, int):
            return expected == got
        return math.isclose(expected, got, rel_tol=1e-5, abs_tol=1e-9) or (
            math.isnan(expected) and math.isnan(got))
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        return len(expected) == len(got) and all(same(a, b) for a, b in zip(expected, got, strict=True))
    if isinstance(expected, dict):
        if isinstance(got, (list, tuple)) and all(isinstance(p, tuple) and len(p) == 2 for p in got):
            got = dict(got)  # a C++ map shown as its pairs
        if not isinstance(got, dict) or len(got) != len(expected):
            return False
        keys = {repr(k): v for k, v in got.items()}
        return all(repr(k) in keys and same(v, keys[repr(k)]) for k, v in expected.items())
    if isinstance(expected, (set, frozenset)) and isinstance(got, (set, frozenset, list, tuple)):
        return sorted(map(repr, expected)) == sorted(map(repr, got)) and len(set(got)) == len(got)
    return type(expected) is type(got) and expected == got


def matches(expected: Any, recorded: list[str]) -> bool | None:
    """Did the one recorded call return ``expected``?  None: nothing recorded, or it does not read
    back (no evidence); a call that raised or never returned is False."""
    if not recorded:
        return None
    if recorded[0].startswith("!"):
        return False
    ok, got = read_value(recorded[0])
    return same(expected, got) if ok else None
