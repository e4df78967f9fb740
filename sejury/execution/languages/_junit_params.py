"""JUnit 5's parameterized tests: a ``@ParameterizedTest`` method with ``@ValueSource`` or
``@CsvSource`` rows runs once per row, each row's values bound to the method's parameters.

Each row becomes the method's parameters declared as local variables (``int n = 4;``), before the
method's statements, so the splitter makes its units as for a ``@Test`` method (one per check),
named ``SolutionTest.isEven[2]`` (the row's index).  Before, such a method was not read at all: a
developer's parameterized tests, the usual form of a table of cases in JUnit 5, were no evidence.

Values are converted as JUnit converts them for the parameter's type: the integral and floating
types, ``boolean``, ``char``, ``String`` and their boxes; an empty unquoted CSV value is ``null``,
``''`` the empty string.  Not read (the method is left out, as before): other sources
(``@MethodSource``, ``@EnumSource``, ``@CsvFileSource``, ``@ArgumentsSource``), ``textBlock``,
parameters of other types, a row with too few values.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from sejury.execution.languages._clike import closing, split_commas, string_end, top_level_items

_PARAMETERIZED = re.compile(r"@ParameterizedTest\b")
_ANNOTATION = re.compile(r"\s*@(?P<name>[\w.]+)\s*")
_HEADER = re.compile(r"\s*(?:(?:public|protected|private|static|final)\s+)*void\s+(?P<name>\w+)\s*"
                     r"\((?P<params>[^)]*)\)\s*(?:throws\s+[\w\s,.]+)?\{")
_ARRAY = re.compile(r"(?P<key>\w+)\s*=\s*\{")
_INTEGRAL = {"int": "int", "Integer": "int", "long": "long", "Long": "long", "short": "short", "Short": "short",
             "byte": "byte", "Byte": "byte"}
_FLOATING = {"double": "double", "Double": "double", "float": "float", "Float": "float"}
_NUMBER = re.compile(r"[+-]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_PRIMITIVE = {"int", "long", "short", "byte", "double", "float", "boolean", "char"}


@dataclass
class Parameterized:
    name: str
    body: str  # the method's statements
    rows: list[tuple[int, list[str]]]  # each row read: its number (from 1, as JUnit shows it), its parameters
    # declared as local variables


def parameterized(tests: str) -> list[Parameterized]:
    """The ``@ParameterizedTest`` methods whose rows this module reads, in order."""
    out = []
    for m in _PARAMETERIZED.finditer(tests):
        at, sources = m.start(), {}
        while a := _ANNOTATION.match(tests, at):
            at, args = a.end(), ""
            if tests.startswith("(", at):
                end = closing(tests, at)
                if end < 0:
                    break
                at, args = end + 1, tests[at + 1:end]
            sources[a.group("name").rsplit(".", 1)[-1]] = args
        header = _HEADER.match(tests, at)
        end = closing(tests, header.end() - 1) if header else -1
        if header is None or end < 0:
            continue
        params = [p.replace("final ", "").split() for p in split_commas(header.group("params"), "(<[", ")>]")]
        if any(len(p) != 2 for p in params):
            continue  # an annotated parameter (``@ConvertWith``), a varargs
        values, written = _rows(sources, len(params))
        rows = [(i, declared) for i, row in enumerate(values, 1)
                if (declared := _declared(params, row, written)) is not None]
        if rows:
            out.append(Parameterized(header.group("name"), tests[header.end():end], rows))
    return out


def _rows(sources: dict[str, str], arity: int) -> tuple[list[list[str | None]], str]:
    """Each row's values and how they are written: ``"csv"`` (CSV text, None for its null) or the
    ``@ValueSource`` attribute (``"ints"``: Java literals of that type); no row for a source, or a
    setting of one, that this module does not read."""
    if "ValueSource" in sources and arity == 1:
        args = sources["ValueSource"]
        m = _ARRAY.search(args)
        end = closing(args, m.end() - 1) if m else -1
        if m is None or end < 0 or m.group("key") not in _WIDENS:
            return [], ""
        return [[item] for item in top_level_items(args[m.end():end])], m.group("key")
    if "CsvSource" in sources and not _UNREAD_CSV.search(sources["CsvSource"]):
        args = sources["CsvSource"]
        delimiter = re.search(r"delimiter\s*=\s*'(.)'", args)
        m = re.match(r"\s*\{", args) or re.search(r"\bvalue\s*=\s*\{", args)
        end = closing(args, m.end() - 1) if m else -1
        if m is None or end < 0:
            return [], ""
        rows: list[list[str | None]] = []
        for item in top_level_items(args[m.end():end]):
            if not item.startswith('"') or string_end(item, 0) != len(item) - 1:
                return [], ""  # a constant, a concatenation: not read
            values = _csv(_unquoted(item), delimiter.group(1) if delimiter else ",")
            rows.append(values[:arity])  # too few: not read (kept, so the rows keep their numbers)
        return rows, "csv"
    return [], ""


# @CsvSource's settings that change how its rows read: such a source is not read
_UNREAD_CSV = re.compile(r"\b(?:textBlock|nullValues|emptyValue|quoteCharacter|useHeadersInDisplayName|"
                         r"ignoreLeadingAndTrailingWhitespace|delimiterString)\b")
# a @ValueSource attribute -> the parameter types its literals convert to (JUnit's widening)
_WIDENS = {"ints": {"int", "Integer", "long", "Long", "float", "Float", "double", "Double"},
           "longs": {"long", "Long", "float", "Float", "double", "Double"},
           "shorts": {"short", "Short", "int", "Integer", "long", "Long", "float", "Float", "double", "Double"},
           "bytes": {"byte", "Byte", "short", "Short", "int", "Integer", "long", "Long", "float", "Float",
                     "double", "Double"},
           "floats": {"float", "Float", "double", "Double"}, "doubles": {"double", "Double"},
           "chars": {"char", "Character"}, "booleans": {"boolean", "Boolean"},
           "strings": set()}  # strings: converted as a CSV value is, to the parameter's type


def _unquoted(literal: str) -> str:
    """A Java string literal's text (its common escapes read as JSON's)."""
    try:
        text = json.loads(literal.replace("\\'", "'"))
    except ValueError:
        return literal[1:-1]
    return text if isinstance(text, str) else literal[1:-1]


def _csv(line: str, delimiter: str) -> list[str | None]:
    """A ``@CsvSource`` row's values: trimmed; ``'...'`` quotes a value (its delimiters and spaces
    kept, ``''`` inside it a quote); an empty unquoted value is null."""
    values: list[str | None] = []
    value, quoted, inside, i = "", False, False, 0
    text = line + delimiter
    while i < len(text):
        ch = text[i]
        if ch == "'" and inside and text[i + 1:i + 2] == "'":
            value += "'"  # an escaped quote
            i += 1
        elif ch == "'" and (inside or not value.strip()):
            if not inside:
                value = ""  # an opening quote: the spaces before it are not the value's
            inside, quoted = not inside, True
        elif ch == delimiter and not inside:
            kept = value if quoted else value.strip()
            values.append(kept if kept or quoted else None)
            value, quoted = "", False
        elif inside or not quoted:
            value += ch  # outside quotes, what follows a closing quote (spaces) is left out
        i += 1
    return values


def _declared(params: list[list[str]], row: list[str | None], written: str) -> list[str] | None:
    """The row's values as declarations of the parameters, or None when one cannot be converted;
    ``written``: how the values are written (``_rows``)."""
    if len(row) != len(params):
        return None
    out = []
    for (kind, name), value in zip(params, row, strict=True):
        if written in ("csv", "strings"):
            literal = _literal(kind, value if written == "csv" or value is None else _unquoted(value))
        else:
            literal = _cast(kind, value) if value is not None and kind in _WIDENS[written] else None
        if literal is None:
            return None
        out.append(f"{kind} {name} = {literal};")
    return out


def _cast(kind: str, literal: str) -> str:
    """A ``@ValueSource`` literal for a parameter of type ``kind`` (``(long) (3)``)."""
    number = _INTEGRAL.get(kind) or _FLOATING.get(kind)
    return f"({number}) ({literal})" if number else literal


def _literal(kind: str, value: str | None) -> str | None:
    """A CSV value as a Java expression of type ``kind``, as JUnit converts it; None when it cannot."""
    if value is None:
        return None if kind in _PRIMITIVE else "null"
    value = value.strip() if kind != "String" else value
    if kind in _INTEGRAL or kind in _FLOATING:
        if not _NUMBER.fullmatch(value) or (kind in _INTEGRAL and not re.fullmatch(r"[+-]?\d[\d_]*", value)):
            return None
        suffix = "L" if _INTEGRAL.get(kind) == "long" else ""
        return f"({_INTEGRAL.get(kind) or _FLOATING[kind]}) ({value}{suffix})"
    if kind in ("boolean", "Boolean"):
        return value.lower() if value.lower() in ("true", "false") else None
    if kind in ("char", "Character"):
        return None if len(value) != 1 else "'" + ("\\'" if value == "'" else "\\\\" if value == "\\" else value) + "'"
    if kind in ("String", "CharSequence", "Object"):
        return json.dumps(value)  # ASCII JSON: a Java string literal too
    return None
