"""More inputs than the model wrote: EvalPlus's type-aware input mutation, in Python, JavaScript,
Java, C++ and Go (inputs are Python values; each language reads and writes its own literals).

The seeds are the calls of the problem's function in S5's tests whose arguments are literals
(``f([1, 2], 3)``); each new input changes one argument of a seed by a rule that keeps its type:

- ``int``: +1, -1, 0, negated, doubled (kept within +-10**6); ``float``: the same, and halved;
- ``bool``: flipped; ``str``: emptied, a character dropped, duplicated, reversed, case swapped
  (a string of words: by words, below);
- ``list`` / ``tuple``: emptied, reversed, an element dropped, duplicated or mutated (three of its
  variants, drawn);
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

Strings of words are mutated by words, not characters.  At a place where every seed's value is a
string of words (at least one space, single spaces between non-empty words: ``'three one five'``,
``'5 apples and 6 oranges'``), a character rule leaves the problem's domain (``'ne fivethree'`` is
no list of number words; ``' apples and 1 oranges'`` no fruit basket), where the reference and a
right candidate may answer differently (one copes, one raises) and a right candidate is rejected.
Such a place is one of two shapes:

- a *template*: every seed splits into the same sequence of number and word tokens, with at least
  one number (``N word word N word``): only the numbers change, by the integer rules (+1, -1, 0,
  doubled), the words stay; a value fits when it has the template's shape, each word is one the
  seeds show at that slot, and its numbers are not negative when no seed's is;
- otherwise a *word list*: a word dropped, duplicated or replaced by another word of the seeds',
  two words swapped, the order reversed (single spaces, as the seeds show); a value fits when each
  of its words is one of the seeds'.

The same holds for the elements of a container whose seeds' elements are all strings of words.  A
string place where some seed is a single word, empty, or spaced otherwise (``'apple pi e '``,
``'Example   3'``: the spacing may be the point) keeps the character rules.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from sejury.execution.arrays import Built
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


_NUMBER = re.compile(r"-?\d+")


def _words(s: str) -> list[str] | None:
    """``s``'s words when it is a string of words: at least one space, single spaces between
    non-empty words; else None (one word, or a spacing that may matter to the problem)."""
    tokens = s.split(" ")
    return tokens if len(tokens) > 1 and all(tokens) else None


def _shape(tokens: list[str]) -> tuple[bool, ...]:
    """Which tokens are numbers (``True``) and which words."""
    return tuple(bool(_NUMBER.fullmatch(t)) for t in tokens)


class Sentences:
    """The seeds' strings of words at one place: their words, and their template when they share
    one (the same sequence of number and word tokens, with a number in it)."""

    def __init__(self, seeds: list[list[str]]) -> None:
        self.words = sorted({t for tokens in seeds for t in tokens})
        shapes = {_shape(tokens) for tokens in seeds}
        self.template = shapes.pop() if len(shapes) == 1 and any(_shape(seeds[0])) else None
        # per slot of the template, the words the seeds show there
        self.slots = [{tokens[k] for tokens in seeds} for k in range(len(seeds[0]))] if self.template else []
        self.signed = any(int(t) < 0 for tokens in seeds for t in tokens if _NUMBER.fullmatch(t))

    @classmethod
    def of(cls, seen: list[Any]) -> Sentences | None:
        """The place's strings of words, when every seed value ``seen`` there is one."""
        tokens = [_words(x) if isinstance(x, str) else None for x in seen]
        if not tokens or any(t is None for t in tokens):
            return None
        return cls([t for t in tokens if t is not None])

    def mutations(self, value: str, rng: random.Random) -> list[str]:
        tokens = _words(value) or [value]
        if self.template is not None:
            out = []
            for k, t in enumerate(tokens):
                if _NUMBER.fullmatch(t):
                    x = int(t)
                    out += [" ".join([*tokens[:k], str(v), *tokens[k + 1:]])
                            for v in (x + 1, x - 1, 0, 2 * x) if abs(v) <= MAX_INT and v != x]
            return out
        variants = [tokens[::-1]]
        k = rng.randrange(len(tokens))
        if len(tokens) > 1:
            variants.append(tokens[:k] + tokens[k + 1:])
            i, j = sorted(rng.sample(range(len(tokens)), 2))
            variants.append([*tokens[:i], tokens[j], *tokens[i + 1:j], tokens[i], *tokens[j + 1:]])
        if len(tokens) < MAX_LEN:
            variants.append([*tokens[:k + 1], tokens[k], *tokens[k + 1:]])
        others = [w for w in self.words if w != tokens[k]]
        if others:
            variants.append([*tokens[:k], rng.choice(others), *tokens[k + 1:]])
        return [" ".join(v) for v in variants]

    def fits(self, value: str) -> bool:
        tokens = _words(value) or ([value] if value and " " not in value else None)
        if tokens is None:
            return False
        if self.template is None:
            return all(t in self.words for t in tokens)
        if _shape(tokens) != self.template:
            return False
        return all((self.signed or int(t) >= 0) if number else t in slot
                   for t, number, slot in zip(tokens, self.template, self.slots, strict=True))


def _some(variants: list[Any], rng: random.Random, k: int = 3) -> list[Any]:
    """``k`` of an element's variants, drawn: the first ones of a string are always emptied,
    reversed and case-swapped, so taking them in order never grew or shortened an element (a list
    of words never got words of new lengths)."""
    return rng.sample(variants, k) if len(variants) > k else variants


def mutations(value: Any, rng: random.Random, depth: int = 0, seen: list[Any] | None = None) -> list[Any]:
    """Type-keeping variants of ``value`` (none for a type without rules, e.g. None).  ``seen``:
    the seeds' values at the same place, when known; a string of words whose seeds are strings of
    words is mutated by words (``Sentences``); a numpy or pandas value by its cells (``arrays``)."""
    if isinstance(value, Built):
        return value.mutations(rng, seen or [])
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return list(_ints(value))
    if isinstance(value, float):
        return list(_floats(value))
    if isinstance(value, str):
        sentences = Sentences.of(seen or [])
        return sentences.mutations(value, rng) if sentences else _strs(value)
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
                pooled = [y for x in seen or [] if isinstance(x, (list, tuple)) for y in x]
                for variant in _some(mutations(items[k], rng, depth + 1, pooled), rng):
                    out.append(kind([*items[:k], variant, *items[k + 1:]]))
        return out
    if isinstance(value, dict):
        d: list[Any] = [{}]
        if value:
            key = rng.choice(list(value))
            d.append({k: v for k, v in value.items() if k != key})
            if depth < 2:
                pooled = [y for x in seen or [] if isinstance(x, dict) for y in x.values()]
                d += [{**value, key: v} for v in _some(mutations(value[key], rng, depth + 1, pooled), rng)]
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
    domain = places(seeds)
    out: list[Args] = []
    parents = seeds
    for _ in range(generations):
        made = _one_generation(parents, n - len(out), rng, seen, domain, equal_lengths(seeds))
        out += made
        if len(out) >= n or not made:
            break
        parents = made
    return out


def is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def sign_fits(value: float, seen: list[Any]) -> bool:
    """A number's sign against the seeds' numbers at its place: not zero or negative where every
    one is positive, not negative where every one is at least 0 (no number there: any sign)."""
    nums = [x for x in seen if is_number(x)]
    if nums and all(x > 0 for x in nums) and value <= 0:
        return False
    return not (nums and all(x >= 0 for x in nums) and value < 0)


def empty_unshown(value: Any, seen: list[Any]) -> bool:
    """Is ``value`` an empty string or container where every one of the seeds' values of its type
    at its place (``seen``) is non-empty?  Outside the domain for the fuzzers (``fits``), an edge
    for S5's tests (``domain.Domain.edge``)."""
    if not isinstance(value, (str, list, tuple, set, frozenset, dict)) or value:
        return False
    same = [x for x in seen if isinstance(x, type(value))]
    return bool(same) and all(same)


def fits(value: Any, seen: list[Any]) -> bool:
    """Is ``value`` inside the domain the seeds' values ``seen`` (at the same place) show?"""
    if not seen:
        return True
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, Built):
        return value.fits(seen)
    if isinstance(value, (int, float)):
        return sign_fits(value, seen)
    if isinstance(value, str):
        sentences = Sentences.of(seen)
        if sentences is not None:
            return sentences.fits(value)
        strs = [x for x in seen if isinstance(x, str)]
        if empty_unshown(value, seen):
            return False
        return not strs or set(value) <= set().union(*map(set, strs))
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        if empty_unshown(value, seen):
            return False
        same = [x for x in seen if isinstance(x, type(value))]
        items = list(value.values()) if isinstance(value, dict) else list(value)
        pooled = [y for x in same for y in (x.values() if isinstance(x, dict) else x)]
        return all(fits(y, pooled) for y in items)
    return True


def places(seeds: list[Args]) -> tuple[dict[int, list[Any]], dict[str, list[Any]]]:
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
            seen_i = by_pos.get(i, [])
            variants += [((*args[:i], v, *args[i + 1:]), kwargs) for v in mutations(a, rng, seen=seen_i)
                         if fits(v, seen_i) and _keeps_lengths((*args[:i], v, *args[i + 1:]), pairs)]
        for j, (name, a) in enumerate(kwargs):
            seen_n = by_name.get(name, [])
            variants += [(args, (*kwargs[:j], (name, v), *kwargs[j + 1:])) for v in mutations(a, rng, seen=seen_n)
                         if fits(v, seen_n)]
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
