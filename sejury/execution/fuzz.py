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
inputs, so an out-of-domain seed (a triangle with negative sides) widens the domain too.  The
seeds are read, and the new inputs written back per language, by ``calls.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from sejury.execution.calls import Args, render_call

MAX_INT = 10 ** 6
MAX_LEN = 64  # a mutation never grows a container or string beyond this


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
