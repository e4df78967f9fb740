"""Adapting a *reference* body to the signature it is joined to, guided by the compiler.

Benchmarks mix editions: the shared HumanEval-X sets join HumanEval-X reference bodies to
MultiPL-E signatures, so a correct reference returns ``List<Integer>`` where the signature says
``ArrayList<Integer>``, a ``vector<int>`` for a ``vector<long>``, or names the parameter
``string`` where the signature calls it ``music_string``.  Such a reference does not compile,
and no test can be validated on it: the harness's problem, never the candidate's.  These rules
rewrite only the lines the compiler names, in ways that keep the reference's behaviour:

- a ``return`` of the wrong type converts the value to the declared type (a copy into the
  declared collection, a numeric cast; in C++ ``sejury_as``, element by element, keys included);
- an undeclared name in a one-parameter function whose body never mentions the parameter is
  that parameter under its other edition's name (an alias is declared), unless the body
  declares that name itself;
- C++: a parameter named after a type the body uses as one (``std::string string``) is renamed
  in the signature line, so the type is visible again;
- C++: a ``std::tuple`` parameter indexed as a vector (``interval[0]``, a body written for
  ``vector<int> interval``) is read with ``std::get<0>(interval)`` on the lines the compiler names.

Candidates are never adapted: a candidate that does not compile fails, as in the benchmark.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher

from sejury.execution.languages import _clike

_RETURN = re.compile(r"\breturn\s+(?P<expr>[^;]+);")
_SIGNATURE = re.compile(_clike.SIGNATURE)


@dataclass(frozen=True)
class Error:
    line: int  # 0-based, in the program
    message: str  # the diagnostic and its notes (up to the next diagnostic)


@dataclass(frozen=True)
class Rules:
    """One language's reading of its compiler and its two rewrites."""

    diagnostic: re.Pattern[str]  # groups: line, message
    prefix_lines: int  # lines the harness puts before the program in the compiled file
    wrong_return: re.Pattern[str]  # a message that a returned value has the wrong type
    undeclared: re.Pattern[str]  # a message naming an undeclared variable (group 1)
    convert: Callable[[str, str], str | None]  # (declared return type, expression) -> converted
    alias: Callable[[str, str], str]  # (undeclared name, parameter) -> a declaration line
    prelude: str = ""  # what a conversion calls, put before the first function converted (once)
    # type names a parameter may be named after (C++'s ``std::string string``): where the body uses
    # the name as its type, the parameter is renamed, and the body's own name for it is then aliased
    type_names: frozenset[str] = frozenset()
    # a message that a value is subscripted that cannot be (C++'s tuple), and how a constant index
    # of a tuple parameter is read instead: (parameter, index) -> expression
    subscript: re.Pattern[str] | None = None
    tuple_get: Callable[[str, str], str] | None = None


def errors(rules: Rules, output: str) -> list[Error]:
    found = list(rules.diagnostic.finditer(output))
    out = []
    for k, m in enumerate(found):
        end = found[k + 1].start() if k + 1 < len(found) else len(output)
        out.append(Error(int(m.group("line")) - 1 - rules.prefix_lines, output[m.start("message"):end]))
    return out


def _enclosing(lines: list[str], i: int) -> tuple[int, re.Match[str]] | None:
    for j in range(min(i, len(lines) - 1), -1, -1):
        m = _SIGNATURE.match(lines[j])
        if m and _clike.is_signature(m):
            return j, m
    return None


def _parameter_named(name: str, params: str, body: str) -> str | None:
    """The parameter an undeclared ``name`` stands for: one the body never mentions, the only
    parameter, or else the only such one whose name is like ``name`` (``delimiter`` for
    ``delimeter``, ``operator`` for ``op``, ``string`` for ``music_string``)."""
    items = _clike.top_level_items(params.replace("<", "(").replace(">", ")"))
    names = [m.group(1) for it in items if (m := re.search(r"(\w+)\s*(?:\[\s*\])*$", it))]
    unused = [p for p in names if p != name and not re.search(rf"\b{re.escape(p)}\b", body)]
    if len(names) == 1:
        return unused[0] if unused else None
    alike = [p for p in unused if p in name or name in p or SequenceMatcher(None, p, name).ratio() >= 0.75]
    return alike[0] if len(alike) == 1 else None


# words a name follows without being declared by them (``or operato[i]``, ``return n;``)
_NOT_TYPES = frozenset({"return", "or", "and", "not", "xor", "bitand", "bitor", "else", "case", "new", "delete",
                        "throw", "goto", "sizeof", "typeid", "do", "co_return", "co_yield", "co_await"})


def _declares(name: str, body: str) -> bool:
    """Does ``body`` declare ``name`` itself (``string rstr(...)``, ``int n = 0;``)?  Then it is
    undeclared only because its type could not be read, and no parameter stands for it."""
    found = re.finditer(rf"\b([A-Za-z_][\w:<>,]*)\s*[&*]?\s+{re.escape(name)}\s*[=;(\[{{,]", body)
    return any(m.group(1) not in _NOT_TYPES for m in found)


def _rename_type_named(rules: Rules, lines: list[str], errs: list[Error], notes: list[str]) -> None:
    """MultiPL-E names C++ parameters after their type (``std::string string``), which hides the
    type from a body written for another signature (``string rstr = ...`` no longer declares a
    string): such a parameter of a function the compiler complains in is renamed ``sejury_<name>``
    where the body uses the name as a type, in the signature line only."""
    done: set[int] = set()
    for err in errs:
        sig = _enclosing(lines, err.line) if 0 <= err.line < len(lines) else None
        if sig is None or sig[0] in done:
            continue
        at, m = sig
        done.add(at)
        body = "\n".join(lines[at + 1:])
        for name in sorted(rules.type_names):
            if re.search(rf"\b{name}\s*$", m.group("params").split(",")[-1]) or \
                    re.search(rf"\b{name}\s*,", m.group("params")):
                if not re.search(rf"(?:^|[;{{(]|\s)(?:const\s+)?{name}\s+[A-Za-z_]\w*\s*[=;(,{{]", body, re.M):
                    continue
                start, end = m.span("params")
                params = re.sub(rf"\b{name}(\s*(?:,|$))", rf"sejury_{name}\1", lines[at][start:end])
                lines[at] = lines[at][:start] + params + lines[at][end:]
                notes.append(f"the parameter `{name}` is `sejury_{name}` (line {at + 1}): the body uses `{name}` "
                             "as a type")


def _tuple_parameters(params: str) -> list[str]:
    """The names of the parameters declared as a tuple or a pair (``std::tuple<long, long> a``)."""
    return [m.group(1) for it in _clike.top_level_items(params.replace("<", "(").replace(">", ")"))
            if re.match(r"\s*(?:const\s+)?(?:std::)?(?:tuple|pair)\s*\(", it)
            and (m := re.search(r"(\w+)\s*$", it))]


def _get_of(get: Callable[[str, str], str], name: str, m: re.Match[str]) -> str:
    return get(name, m.group(1))


def _subscript_tuples(rules: Rules, lines: list[str], err: Error, params: str, notes: list[str]) -> None:
    """A constant subscript of a tuple parameter on the line ``err`` names, read with ``get``."""
    if rules.subscript is None or rules.tuple_get is None or not rules.subscript.search(err.message):
        return
    get = rules.tuple_get
    for name in _tuple_parameters(params):
        line = lines[err.line]
        new = re.sub(rf"\b{re.escape(name)}\s*\[\s*(\d+)\s*\]", functools.partial(_get_of, get, name), line)
        if new != line:
            lines[err.line] = new
            notes.append(f"line {err.line + 1}: `{name}[k]` -> `{get(name, 'k')}` (a tuple)")


def adapt(rules: Rules, program: str, output: str) -> tuple[str, list[str]] | None:
    """The program with the lines the compiler names rewritten, and a note per rewrite; None when
    no rule applies."""
    lines = program.splitlines()
    notes: list[str] = []
    _rename_type_named(rules, lines, errors(rules, output), notes)
    aliased: dict[int, dict[str, str]] = {}  # signature line -> undeclared name -> its declaration
    converted_at: list[int] = []  # signature lines of the functions a return was converted in
    for err in errors(rules, output):
        if not 0 <= err.line < len(lines):
            continue
        sig = _enclosing(lines, err.line)
        if sig is None:
            continue
        at, m = sig
        _subscript_tuples(rules, lines, err, m.group("params"), notes)
        returns = list(_RETURN.finditer(lines[err.line]))
        ret = returns[0] if len(returns) == 1 else None
        undeclared = rules.undeclared.search(err.message)
        if ret and rules.wrong_return.search(err.message):
            converted = rules.convert(" ".join(m.group("ret").split()), ret.group("expr"))
            line = lines[err.line]
            if converted and converted != ret.group(0):
                notes.append(f"line {err.line + 1}: `{ret.group(0)}` -> `{converted}`")
                lines[err.line] = line[:ret.start()] + converted + line[ret.end():]
                converted_at.append(at)
        elif undeclared and not _declares(undeclared.group(1), "\n".join(lines[at + 1:])):
            name = undeclared.group(1)
            param = _parameter_named(name, m.group("params"), "\n".join(lines[at + 1:]))
            if param and name not in aliased.setdefault(at, {}):
                aliased[at][name] = rules.alias(name, param)
                notes.append(f"`{name}` is the parameter `{param}` (line {at + 1})")
    for at in sorted(aliased, reverse=True):
        indent = re.match(r"\s*", lines[at + 1] if at + 1 < len(lines) else "")
        lines[at + 1:at + 1] = [(indent.group(0) if indent else "") + decl for decl in aliased[at].values()]
    if converted_at and rules.prelude and rules.prelude not in program:
        at = min(converted_at)  # the aliases went in after their signature lines: this one has not moved
        lines[at:at] = rules.prelude.splitlines()
    return ("\n".join(lines) + "\n", notes) if notes else None


_JAVA_COLLECTIONS = {"ArrayList", "LinkedList", "HashMap", "HashSet", "TreeMap", "TreeSet", "LinkedHashMap",
                     "LinkedHashSet"}
_JAVA_PRIMITIVES = {"int", "long", "float", "double", "short", "byte"}
_JAVA_BOXED = {"Integer": "intValue", "Long": "longValue", "Float": "floatValue", "Double": "doubleValue"}


def _java_convert(declared: str, expr: str) -> str | None:
    outer = declared.split("<")[0].split()[-1]
    if outer in _JAVA_COLLECTIONS:
        return f"return new {outer}<>({expr});"
    if outer == "Pair":  # javatuples: a two-element list as the declared pair
        return f"return Pair.fromCollection({expr});"
    if outer in _JAVA_PRIMITIVES:
        return f"return ({outer}) ({expr});"
    if outer in _JAVA_BOXED:
        return f"return ((Number) ({expr})).{_JAVA_BOXED[outer]}();"
    return None


JAVA = Rules(
    diagnostic=re.compile(r"^\w+\.java:(?P<line>\d+): error: (?P<message>.*)$", re.M),
    prefix_lines=2,  # the harness's two import lines
    wrong_return=re.compile(r"incompatible types"),
    undeclared=re.compile(r"cannot find symbol\s*\n.*\n.*\n\s*symbol:\s+variable (\w+)"),
    convert=_java_convert,
    alias=lambda name, param: f"var {name} = {param};",
)


# the value as the declared type: a number cast, a char made a one-letter string, a pair by its
# halves, a container element by element (vector<int> for vector<long>, map<char, int> for
# map<string, long>), each element converted the same way
_CPP_AS = r"""template <class T> struct sejury_adapt_pair : std::false_type {};
template <class A, class B> struct sejury_adapt_pair<std::pair<A, B>> : std::true_type {};
template <class To, class From> To sejury_as(const From& v) {
  using T = std::remove_cv_t<To>;
  if constexpr (std::is_convertible_v<From, T>) return T(v);
  else if constexpr (std::is_same_v<T, std::string> && std::is_same_v<std::decay_t<From>, char>) return T(1, v);
  else if constexpr (sejury_adapt_pair<T>::value)
    return T(sejury_as<typename T::first_type>(v.first), sejury_as<typename T::second_type>(v.second));
  else {
    T out;
    for (const auto& x : v) out.insert(out.end(), sejury_as<typename T::value_type>(x));
    return out;
  }
}"""


def _cpp_convert(declared: str, expr: str) -> str | None:
    return f"return sejury_as<{declared}>({expr});"


CPP = Rules(
    diagnostic=re.compile(r"^solution\.cpp:(?P<line>\d+):\d+: error: (?P<message>.*)$", re.M),
    prefix_lines=2,  # the harness's #include and using lines
    wrong_return=re.compile(r"could not convert"),
    undeclared=re.compile(r"[‘'`](\w+)[’'] was not declared in this scope"),
    convert=_cpp_convert,
    alias=lambda name, param: f"auto& {name} = {param};",
    prelude=_CPP_AS,
    type_names=frozenset({"string"}),
    subscript=re.compile(r"no match for [‘'`]operator\[\][’'] \(operand types are "
                         r"[‘'`](?:const )?std::(?:tuple|pair)<"),
    tuple_get=lambda name, k: f"std::get<{k}>({name})",
)
