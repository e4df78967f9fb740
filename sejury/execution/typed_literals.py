"""Python values written as Java, C++ or Go expressions of a parameter's declared type.

The benchmarks' Java and C++ problems (MultiPL-E's HumanEval, as in ``../shared/data``) keep the
original problem's examples in Python's syntax (``>>> closest_integer("10")``, ``specialFilter([15,
-73, 14, -15])``) above a typed signature (``public static int closestInteger(String value)``,
``long specialFilter(std::vector<long> nums)``).  Ex-fuzz reads those examples as Python literals
(``calls.example_calls``) and this module writes each input back as a call the language compiles,
argument by argument, by the parameter's type: ``[1, -2]`` for ``ArrayList<Integer>`` is
``new ArrayList<Integer>(Arrays.<Integer>asList(1, -2))``, for ``std::vector<long>`` it is
``std::vector<long>{1, -2}``, for Go's ``[]int`` ``[]int{1, -2}`` (Go's writer is in ``go_typed``).
A value that does not fit its type (a float for an ``int``, an int beyond 32 bits, a type with no
rule such as MultiPL-E's ``Union_int_float_String``) gives no call: that input is left out, never
guessed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from sejury.execution import languages
from sejury.execution.languages import _clike

GO_SLICE, GO_MAP = "go:[]", "go:map"  # Go's []T and map[K]V, as ``Type`` names
INT32 = 2 ** 31
INT64 = 2 ** 63


@dataclass(frozen=True)
class Type:
    """A parsed type: its name (``ArrayList``, ``std::vector``, ``int``, ``int[]``) and arguments."""

    name: str
    args: tuple[Type, ...] = ()

    def text(self) -> str:
        if self.name == GO_SLICE:
            return "[]" + self.args[0].text()
        if self.name == GO_MAP:
            return f"map[{self.args[0].text()}]{self.args[1].text()}"
        return f"{self.name}<{', '.join(a.text() for a in self.args)}>" if self.args else self.name

    @property
    def bare(self) -> str:
        """The name without ``std::`` or a Java package (``java.util.List`` -> ``List``)."""
        return self.name.removeprefix("std::").rsplit(".", 1)[-1]


def parse_type(text: str) -> Type | None:
    """``std::vector<std::tuple<long, long>>`` -> a ``Type`` tree; None when it does not parse."""
    text = re.sub(r"\b(?:const|final|volatile)\b|&", " ", text)
    text = re.sub(r"\s+", " ", text).strip()
    got, rest = _parse(text)
    return got if got is not None and not rest.strip() else None


def _parse(text: str) -> tuple[Type | None, str]:
    m = re.match(r"\s*((?:unsigned |signed )?(?:long long|long double|[A-Za-z_][\w:.]*))\s*", text)
    if m is None:
        return None, text
    name, rest = m.group(1), text[m.end():]
    args: list[Type] = []
    if rest.startswith("<"):
        rest = rest[1:]
        while True:
            arg, rest = _parse(rest)
            if arg is None:
                return None, text
            args.append(arg)
            rest = rest.lstrip()
            if rest.startswith(","):
                rest = rest[1:]
                continue
            if rest.startswith(">"):
                rest = rest[1:].lstrip()
                break
            return None, text
    while rest.startswith("[]"):
        name, rest = name + "[]", rest[2:].lstrip()
    return Type(name, tuple(args)), rest


def typed_parameters(problem: str, function: str, language: str = "java") -> list[tuple[Type, str]] | None:
    """The declared parameters of ``function`` (its last signature in the problem) as (type,
    name); None when there is no such signature or one of its types does not parse.  Read by the
    language's ``parameters`` (Go's with its grammar), else as ``type name`` (``c_parameters``)."""
    lang = languages.get(language)
    return (lang.parameters if lang is not None and lang.parameters else c_parameters)(problem, function)


def c_parameters(problem: str, function: str) -> list[tuple[Type, str]] | None:
    """``typed_parameters`` written ``type name`` (Java, C++)."""
    found = None
    for m in re.finditer(rf"[\w>\]&*]\s+{re.escape(function)}\s*\(", problem):
        close = _clike.closing(problem, m.end() - 1)
        if close > 0 and re.match(r"\s*(?:const\s*)?(?:throws\s+[\w.,\s]+)?\{", problem[close + 1:]):
            found = problem[m.end():close]
    if found is None:
        return None
    params: list[tuple[Type, str]] = []
    for part in _clike.split_commas(found, "<([{", ">)]}"):
        decl = re.match(r"(.*?)([A-Za-z_]\w*)\s*(\[\])?\s*$", part.strip(), re.S)
        kind = parse_type(decl.group(1) + (decl.group(3) or "")) if decl and decl.group(1).strip() else None
        if decl is None or kind is None:
            return None
        params.append((kind, decl.group(2)))
    return params


def write_call(function: str, params: list[tuple[Type, str]], call: tuple[tuple[Any, ...], tuple[tuple[str, Any], ...]],
               language: str) -> str | None:
    """The statement ``function(arg, ...);`` with each value written in its parameter's type, or
    None when a value does not fit (or the call's arity is not the signature's)."""
    args, kwargs = call
    values = list(args)
    names = [name for _, name in params]
    for name, value in kwargs:
        if name not in names or names.index(name) != len(values):
            return None
        values.append(value)
    if len(values) != len(params):
        return None
    written = [write(v, kind, language) for v, (kind, _) in zip(values, params, strict=True)]
    if any(w is None for w in written):
        return None
    return f"{function}({', '.join(w for w in written if w is not None)});"


_JAVA_INTS = {"int": INT32, "Integer": INT32, "long": INT64, "Long": INT64, "short": 2 ** 15, "Short": 2 ** 15,
              "byte": 2 ** 7, "Byte": 2 ** 7}
_CPP_INTS = {"int": INT32, "long": INT64, "long long": INT64, "short": 2 ** 15, "signed long": INT64,
             "int64_t": INT64, "int32_t": INT32, "size_t": INT64, "unsigned long": INT64, "unsigned": INT32}
_FLOATS = {"float", "Float", "double", "Double", "long double"}


def write(value: Any, kind: Type, language: str) -> str | None:
    """``value`` as a ``language`` expression of type ``kind``, or None (``Language.write_typed``)."""
    if (lang := languages.get(language)) is None or lang.write_typed is None:
        raise KeyError(language)  # no typed literals in ``language``
    return lang.write_typed(value, kind)


def _number(value: Any, kind: Type, ints: dict[str, int]) -> str | None:
    if isinstance(value, bool):
        return None
    bare = kind.bare
    if bare in ints:
        if not isinstance(value, int) or not -ints[bare] <= value < ints[bare]:
            return None
        if bare.startswith("unsigned") or bare == "size_t":
            return str(value) if value >= 0 else None
        return f"{value}L" if ints[bare] == INT64 and abs(value) >= INT32 else str(value)
    if bare in _FLOATS and isinstance(value, (int, float)) and math.isfinite(value):
        text = repr(float(value))
        return text + "f" if bare.lower() == "float" else text
    return None


def java_value(value: Any, kind: Type) -> str | None:
    """``value`` as a Java expression of type ``kind``, or None (its ``Language.write_typed``)."""
    bare, targs = kind.bare, kind.args
    if bare in ("boolean", "Boolean"):
        return ("true" if value else "false") if isinstance(value, bool) else None
    if bare in _JAVA_INTS or bare in _FLOATS:
        out = _number(value, kind, _JAVA_INTS)
        if out and bare.lower() in ("short", "byte"):
            return f"({bare.lower()}) {out}"  # an int literal is not narrowed in a call
        return out + "L" if out and bare in ("long", "Long") and not out.endswith("L") else out
    if bare in ("String", "CharSequence"):
        return quoted(value, "java") if isinstance(value, str) else None
    if bare in ("char", "Character"):
        return _char(value, "java")
    if bare.endswith("[]") and isinstance(value, (list, tuple)):
        inner = parse_type(kind.name[:-2])
        items = [java_value(v, inner) for v in value] if inner else [None]
        return None if None in items else f"new {kind.name}{{{', '.join(map(str, items))}}}"
    if bare in ("ArrayList", "List", "LinkedList", "Collection", "HashSet", "Set", "TreeSet") and len(targs) == 1:
        elements = _elements(value, bare in ("HashSet", "Set", "TreeSet"))
        if elements is None:
            return None
        items = [java_value(v, targs[0]) for v in elements]
        concrete = {"List": "ArrayList", "Collection": "ArrayList", "Set": "HashSet"}.get(bare, bare)
        t = targs[0].text()
        return None if None in items else f"new {concrete}<{t}>(Arrays.<{t}>asList({', '.join(map(str, items))}))"
    if bare in ("HashMap", "Map", "TreeMap") and len(targs) == 2 and isinstance(value, dict):
        entries = [(java_value(k, targs[0]), java_value(v, targs[1])) for k, v in value.items()]
        if any(k is None or v is None for k, v in entries):
            return None
        concrete, t = ("HashMap" if bare == "Map" else bare), f"{targs[0].text()}, {targs[1].text()}"
        puts = ", ".join(f"Map.entry({k}, {v})" for k, v in entries)
        return f"new {concrete}<{t}>(Map.<{t}>ofEntries({puts}))" if entries else f"new {concrete}<{t}>()"
    if bare == "Optional" and len(targs) == 1:
        if value is None:
            return f"Optional.<{targs[0].text()}>empty()"
        inner_value = java_value(value, targs[0])
        return None if inner_value is None else f"Optional.<{targs[0].text()}>of({inner_value})"
    tuples = {"Pair": 2, "Triplet": 3, "Quartet": 4}
    if bare in tuples and len(targs) == tuples[bare] and isinstance(value, (list, tuple)) and len(value) == len(targs):
        items = [java_value(v, t) for v, t in zip(value, targs, strict=True)]
        return None if None in items else (f"{bare}.<{', '.join(t.text() for t in targs)}>with("
                                           f"{', '.join(map(str, items))})")
    return None


def cpp_value(value: Any, kind: Type) -> str | None:
    """``value`` as a C++ expression of type ``kind``, or None (its ``Language.write_typed``)."""
    bare, targs = kind.bare, kind.args
    if bare == "bool":
        return ("true" if value else "false") if isinstance(value, bool) else None
    if bare in _CPP_INTS or bare in _FLOATS:
        return _number(value, kind, _CPP_INTS)
    if bare == "string":
        return f"std::string({quoted(value, 'cpp')})" if isinstance(value, str) else None
    if bare == "char":
        return _char(value, "cpp")
    if bare in ("vector", "list", "deque", "set", "unordered_set") and len(targs) == 1:
        elements = _elements(value, "set" in bare)
        if elements is None:
            return None
        items = [cpp_value(v, targs[0]) for v in elements]
        return None if None in items else f"{kind.text()}{{{', '.join(map(str, items))}}}"
    if bare in ("map", "unordered_map") and len(targs) == 2 and isinstance(value, (dict, list)):
        pairs = value.items() if isinstance(value, dict) else value  # {{"a", 1}} read with no type: a list of pairs
        if not all(isinstance(p, (list, tuple)) and len(p) == 2 for p in pairs):
            return None
        entries = [(cpp_value(k, targs[0]), cpp_value(v, targs[1])) for k, v in pairs]
        if any(k is None or v is None for k, v in entries):
            return None
        return f"{kind.text()}{{{', '.join(f'{{{k}, {v}}}' for k, v in entries)}}}"
    if bare in ("tuple", "pair") and isinstance(value, (list, tuple)) and len(value) == len(targs) > 0:
        items = [cpp_value(v, t) for v, t in zip(value, targs, strict=True)]
        return None if None in items else f"{kind.text()}{{{', '.join(map(str, items))}}}"
    if bare == "optional" and len(targs) == 1:
        if value is None:
            return f"{kind.text()}()"
        inner_value = cpp_value(value, targs[0])
        return None if inner_value is None else f"{kind.text()}({inner_value})"
    return None


def _elements(value: Any, a_set: bool) -> list[Any] | None:
    """A list's (or tuple's) items in order, a set's sorted; None when the container's kind is not
    the type's (a set for a list type, or the reverse)."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr) if a_set else None
    return list(value) if isinstance(value, (list, tuple)) and not a_set else None


def _char(value: Any, language: str) -> str | None:
    if not isinstance(value, str) or len(value) != 1:
        return None
    return "'" + quoted(value, language)[1:-1].replace("\\\"", "\"").replace("'", "\\'") + "'"


def quoted(text: str, language: str) -> str:
    """A double-quoted string literal of ``language``: control characters as octal escapes (never
    Java's ``\\u`` for them, which Java reads before lexing), other characters as they are (UTF-8),
    unless the language escapes them otherwise (``Language.escape``: Java's ``\\u`` for non-ASCII,
    Go's ``\\x`` for control characters, C++'s ``\\?``)."""
    lang = languages.get(language)
    escape = lang.escape if lang is not None else None
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in "\"\\":
            out.append("\\" + ch)
        elif ch in "\n\t\r":
            out.append({"\n": "\\n", "\t": "\\t", "\r": "\\r"}[ch])
        elif escape is not None and (special := escape(ch)) is not None:
            out.append(special)
        elif code < 32 or code == 127:
            out.append(f"\\{code:03o}")
        else:
            out.append(ch)
    return "".join(out) + '"'
