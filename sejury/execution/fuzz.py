"""More inputs than the model wrote: EvalPlus's type-aware input mutation, in Python, JavaScript,
Java, C++ and Go (inputs are Python values; each language reads and writes its own literals).

The seeds are the calls of the problem's function in S5's tests whose arguments are literals
(``f([1, 2], 3)``); each new input changes one argument of a seed by a rule that keeps its type:

- ``int``: +1, -1, 0, negated, doubled (kept within +-10**6); ``float``: the same, and halved;
- ``bool``: flipped; ``str``: emptied, a character dropped, duplicated, reversed, case swapped;
- ``list`` / ``tuple``: emptied, reversed, an element dropped, duplicated or mutated in turn;
- ``dict``: emptied, an entry dropped, a value mutated; ``set``: emptied, an element dropped.

A new input must also stay inside the domain the seeds show, argument by argument (EvalPlus
filters with hand-written contracts; we have none, so the seeds stand in): a number is not
negative (not zero) when no seed's is; a string or container is not empty when no seed's is; a
string uses only characters the seeds' strings use; a container's elements follow the same rules
against the seeds' elements; two arguments of equal length in every seed keep equal lengths.
The reference answers every new input (its value is the expected one; an input it raises on or
hangs on is left out) and the candidate must agree: the differential comparison of
``differential.py``.  A seeded draw keeps the inputs repeatable.  The seeds are the model's own
inputs, so an out-of-domain seed (a triangle with negative sides) widens the domain too.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

from sejury.execution import clike_literals, js_literals, typed_literals
from sejury.execution.languages import _clike

Args = tuple[tuple[Any, ...], tuple[tuple[str, Any], ...]]  # positional, keyword (name, value)

MAX_INT = 10 ** 6
MAX_LEN = 64  # a mutation never grows a container or string beyond this


# those whose literals are read and written: Python's and JavaScript's here and in ``js_literals``;
# Java's and C++'s read in ``clike_literals`` and written back by the parameter types in ``typed_literals``
LANGUAGES = ("python", "javascript", *typed_literals.LANGUAGES)


def seed_calls(tests: str, function: str, language: str = "python") -> list[Args]:
    """The literal arguments of every call of ``function`` in ``tests``, in order, once each
    (JavaScript's literals are read by ``js_literals``, Java's and C++'s by ``clike_literals``)."""
    if language == "javascript":
        return _dedupe(js_literals.seed_calls(tests, function))
    if language in clike_literals.LANGUAGES:
        return _dedupe(clike_literals.seed_calls(tests, function, language))
    try:
        tree = ast.parse(tests)
    except SyntaxError:
        return _seed_lines(tests, function)
    return _dedupe(_calls(tree, function))


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
        found = _parse_calls([f"{function}({', '.join(v)})" for v in _assigned(problem, params)], function, language)
    if not found and params:
        others = {m.group(1) for m in re.finditer(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(", problem)} - {function}
        named = {name: [c for c in _literal_calls(problem, name, language) if len(c[0]) == len(params)]
                 for name in others}
        named = {name: calls for name, calls in named.items() if calls}
        if len(named) == 1:
            found = next(iter(named.values()))
    return _dedupe(found)


def _literal_calls(text: str, function: str, language: str, as_name: str | None = None) -> list[Args]:
    calls = []
    for m in re.finditer(rf"(?<![\w$.]){re.escape(function)}\s*\(", text):
        close = _clike.closing(text, m.end() - 1)
        if close > 0:
            calls.append((as_name or function) + text[m.end() - 1:close + 1])
    return _parse_calls(calls, as_name or function, language)


def _parse_calls(calls: list[str], function: str, language: str) -> list[Args]:
    """Each call's literal arguments, read as ``language``'s literals; the Java and C++ problems
    of the benchmarks write their examples as Python's (``f([1, 2])``), and C++ ones may use
    braces for a list (``f({1, 2})``), read as brackets."""
    found: list[Args] = []
    for call in calls:
        if language == "javascript":
            found += js_literals.seed_calls(call, function)
            continue
        if language == "go" and (got := clike_literals.seed_calls(call, function, "go")):
            found += got  # Go's own literals ([]int{1, 2}); else read as Python's, below
            continue
        forms = [call.replace("{", "[").replace("}", "]"), call] if language == "cpp" and "{" in call else [call]
        for form in forms:
            try:
                got = list(_calls(ast.parse(form, mode="eval"), function))
            except (SyntaxError, ValueError):
                continue
            if got:
                found += got
                break
    return found


def parameters(problem: str, function: str, language: str = "python") -> list[str]:
    """The parameter names of ``function``'s signature in the problem (Python or JavaScript; Java
    and C++ by ``typed_literals``)."""
    if language in typed_literals.LANGUAGES:
        return [name for _, name in typed_literals.typed_parameters(problem, function, language) or []]
    m = re.search(rf"(?:\bdef|\bfunction)\s+{re.escape(function)}\s*\(", problem)
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


def _assigned(problem: str, params: list[str]) -> list[list[str]]:
    """Each run of lines that gives every parameter a literal by name (``name = value`` or
    ``name : value``): the values' texts, in the parameters' order."""
    found: list[list[str]] = []
    current: dict[str, str] = {}
    for line in problem.splitlines():
        hits: dict[str, str] = {}
        for name in params:
            for m in re.finditer(rf"(?<![\w$.]){re.escape(name)}\s*(?:=(?!=)|:(?!:))\s*", line):
                value = _literal_at(line, m.end())
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


def _literal_at(text: str, i: int) -> str | None:
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


def _seed_lines(tests: str, function: str) -> list[Args]:
    """Line by line, when the whole text does not parse (a reply cut off mid-line)."""
    found: list[Args] = []
    for line in tests.splitlines():
        try:
            found += _calls(ast.parse(line.strip()), function)
        except SyntaxError:
            continue
    return _dedupe(found)


def _calls(tree: ast.AST, function: str) -> Iterator[Args]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == function:
            try:
                args = tuple(ast.literal_eval(a) for a in node.args)
                kwargs = tuple((k.arg, ast.literal_eval(k.value)) for k in node.keywords if k.arg is not None)
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
    if language in typed_literals.LANGUAGES:
        params = typed_literals.typed_parameters(problem, function, language)
        if params is None:
            return None
        return lambda call: typed_literals.write_call(function, params, call, language)
    return lambda call: render_call(function, call, language)


def render_call(function: str, call: Args, language: str = "python") -> str:
    if language == "javascript":
        return js_literals.render_call(function, call)
    args, kwargs = call
    return f"{function}({', '.join([*map(repr, args), *(f'{k}={v!r}' for k, v in kwargs)])})"


def _ints(x: int) -> list[int]:
    return [v for v in (x + 1, x - 1, 0, -x, 2 * x) if abs(v) <= MAX_INT]


def _floats(x: float) -> list[float]:
    return [v for v in (x + 1.0, x - 1.0, 0.0, -x, 2 * x, x / 2) if abs(v) <= MAX_INT]


def _strs(s: str) -> list[str]:
    out = ["", s[::-1], s.swapcase()]
    if s:
        out += [s[1:], s[:-1], s[len(s) // 2:] + s[: len(s) // 2]]
        if len(s) < MAX_LEN:
            out.append(s + s[-1])
    return out


def mutations(value: Any, rng: random.Random, depth: int = 0) -> list[Any]:
    """Type-keeping variants of ``value`` (none for a type without rules, e.g. None)."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return list(_ints(value))
    if isinstance(value, float):
        return list(_floats(value))
    if isinstance(value, str):
        return _strs(value)
    if isinstance(value, (list, tuple)):
        kind: Callable[[list[Any]], Any] = list if isinstance(value, list) else tuple
        items = list(value)
        out: list[Any] = [kind([]), kind(items[::-1])]
        if items:
            k = rng.randrange(len(items))
            out.append(kind(items[:k] + items[k + 1:]))
            if len(items) < MAX_LEN:
                out.append(kind([*items[:k + 1], items[k], *items[k + 1:]]))
            if depth < 2:
                for variant in mutations(items[k], rng, depth + 1)[:3]:
                    out.append(kind([*items[:k], variant, *items[k + 1:]]))
        return out
    if isinstance(value, dict):
        d: list[Any] = [{}]
        if value:
            key = rng.choice(list(value))
            d.append({k: v for k, v in value.items() if k != key})
            if depth < 2:
                d += [{**value, key: v} for v in mutations(value[key], rng, depth + 1)[:3]]
        return d
    if isinstance(value, (set, frozenset)):
        s: list[Any] = [type(value)()]
        if value:
            drop = rng.choice(sorted(value, key=repr))
            s.append(type(value)(x for x in value if x != drop))
        return s
    return []


def mutate_inputs(seeds: list[Args], n: int, seed: int = 0, generations: int = 3) -> list[Args]:
    """Up to ``n`` new inputs: one argument of one seed changed by a type-keeping rule, the seeds
    taken in turn; when they run out, the inputs made so far are mutated again (EvalPlus iterates
    the same way), up to ``generations`` deep.  Never a seed itself or an input already made, and
    only inputs that ``fits`` the seeds' domain."""
    rng = random.Random(seed)
    seen = {render_call("f", s) for s in seeds}
    domain = _domain(seeds)
    out: list[Args] = []
    parents = seeds
    for _ in range(generations):
        made = _one_generation(parents, n - len(out), rng, seen, domain, equal_lengths(seeds))
        out += made
        if len(out) >= n or not made:
            break
        parents = made
    return out


def fits(value: Any, seen: list[Any]) -> bool:
    """Is ``value`` inside the domain the seeds' values ``seen`` (at the same place) show?"""
    if not seen:
        return True
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, (int, float)):
        nums = [x for x in seen if isinstance(x, (int, float)) and not isinstance(x, bool)]
        if nums and all(x > 0 for x in nums) and value <= 0:
            return False
        return not (nums and all(x >= 0 for x in nums) and value < 0)
    if isinstance(value, str):
        strs = [x for x in seen if isinstance(x, str)]
        if strs and all(strs) and not value:
            return False
        return not strs or set(value) <= set().union(*map(set, strs))
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        same = [x for x in seen if isinstance(x, type(value))]
        if same and all(same) and not value:
            return False
        items = list(value.values()) if isinstance(value, dict) else list(value)
        pooled = [y for x in same for y in (x.values() if isinstance(x, dict) else x)]
        return all(fits(y, pooled) for y in items)
    return True


def _domain(seeds: list[Args]) -> tuple[dict[int, list[Any]], dict[str, list[Any]]]:
    """The seeds' values at each place: by position, and by keyword."""
    by_pos: dict[int, list[Any]] = {}
    by_name: dict[str, list[Any]] = {}
    for args, kwargs in seeds:
        for i, a in enumerate(args):
            by_pos.setdefault(i, []).append(a)
        for name, a in kwargs:
            by_name.setdefault(name, []).append(a)
    return by_pos, by_name


def equal_lengths(seeds: list[Args]) -> list[tuple[int, int]]:
    """The positional arguments whose lengths are equal in every seed (``string_xor('01', '11')``)."""
    sized = [args for args, _ in seeds]
    if not sized:
        return []
    width = min(len(a) for a in sized)
    pairs = []
    for i in range(width):
        for j in range(i + 1, width):
            if all(isinstance(a[i], (str, list, tuple)) and isinstance(a[j], (str, list, tuple))
                   and len(a[i]) == len(a[j]) for a in sized):
                pairs.append((i, j))
    return pairs


def _keeps_lengths(args: tuple[Any, ...], pairs: list[tuple[int, int]]) -> bool:
    return all(len(args[i]) == len(args[j]) for i, j in pairs if j < len(args))


def _one_generation(parents: list[Args], n: int, rng: random.Random, seen: set[str],
                    domain: tuple[dict[int, list[Any]], dict[str, list[Any]]],
                    pairs: list[tuple[int, int]]) -> list[Args]:
    by_pos, by_name = domain
    pool: list[list[Args]] = []
    for args, kwargs in parents:
        variants: list[Args] = []
        for i, a in enumerate(args):
            variants += [((*args[:i], v, *args[i + 1:]), kwargs) for v in mutations(a, rng)
                         if fits(v, by_pos.get(i, [])) and _keeps_lengths((*args[:i], v, *args[i + 1:]), pairs)]
        for j, (name, a) in enumerate(kwargs):
            variants += [(args, (*kwargs[:j], (name, v), *kwargs[j + 1:])) for v in mutations(a, rng)
                         if fits(v, by_name.get(name, []))]
        rng.shuffle(variants)
        pool.append(variants)
    out: list[Args] = []
    while len(out) < n and any(pool):
        for variants in pool:
            while variants:
                call = variants.pop()
                key = render_call("f", call)
                if key not in seen:
                    seen.add(key)
                    out.append(call)
                    break
            if len(out) >= n:
                break
    return out
