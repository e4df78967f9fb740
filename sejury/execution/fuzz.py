"""More inputs than the model wrote: EvalPlus's type-aware input mutation, in Python.

The seeds are the calls of the problem's function in S5's tests whose arguments are literals
(``f([1, 2], 3)``); each new input changes one argument of a seed by a rule that keeps its type:

- ``int``: +1, -1, 0, negated, doubled (kept within +-10**6); ``float``: the same, and halved;
- ``bool``: flipped; ``str``: emptied, a character dropped, duplicated, reversed, case swapped;
- ``list`` / ``tuple``: emptied, reversed, an element dropped, duplicated or mutated in turn;
- ``dict``: emptied, an entry dropped, a value mutated; ``set``: emptied, an element dropped.

The reference answers every new input (its value is the expected one; an input it raises on or
hangs on is left out, as outside the problem's domain) and the candidate must agree: the
differential comparison of ``differential.py``.  A seeded draw keeps the inputs repeatable.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable, Iterator
from typing import Any

Args = tuple[tuple[Any, ...], tuple[tuple[str, Any], ...]]  # positional, keyword (name, value)

MAX_INT = 10 ** 6
MAX_LEN = 64  # a mutation never grows a container or string beyond this


def seed_calls(tests: str, function: str) -> list[Args]:
    """The literal arguments of every call of ``function`` in ``tests`` (Python), in order, once each."""
    try:
        tree = ast.parse(tests)
    except SyntaxError:
        return _seed_lines(tests, function)
    return _dedupe(_calls(tree, function))


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


def render_call(function: str, call: Args) -> str:
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
    the same way), up to ``generations`` deep.  Never a seed itself or an input already made."""
    rng = random.Random(seed)
    seen = {render_call("f", s) for s in seeds}
    out: list[Args] = []
    parents = seeds
    for _ in range(generations):
        made = _one_generation(parents, n - len(out), rng, seen)
        out += made
        if len(out) >= n or not made:
            break
        parents = made
    return out


def _one_generation(parents: list[Args], n: int, rng: random.Random, seen: set[str]) -> list[Args]:
    pool: list[list[Args]] = []
    for args, kwargs in parents:
        variants: list[Args] = []
        for i, a in enumerate(args):
            variants += [((*args[:i], v, *args[i + 1:]), kwargs) for v in mutations(a, rng)]
        for j, (name, a) in enumerate(kwargs):
            variants += [(args, (*kwargs[:j], (name, v), *kwargs[j + 1:])) for v in mutations(a, rng)]
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
