"""New inputs for a program reading stdin, made from inputs inside its domain (the problem's
examples, the model's inputs) by type-aware mutation that keeps their shape.

An input is read as lines of tokens: integers, decimals, words and the rest.  What a mutation may
touch follows what the seed shows:
- an integer that counts something later in the input (the tokens of a later line, the lines that
  follow, a later word's length) is structure and is never changed;
- other integers move (one up or down, doubled, halved, or another value of the input) without
  changing sign, and on a short line (parameters such as ``a b k``) without changing their order
  against the line's other numbers (``a < b`` stays true, a tie stays a tie: "it is guaranteed
  that a != b" is common; a measured run that let values meet rejected more right programs);
- a line of three or more numbers (an array) may also be reversed, sorted or shuffled;
- a word keeps its length and its letters' case: two letters swapped, one replaced by another
  letter of the input, or reversed;
- a grid row (``#..#``) gets one cell changed to another cell value of the input.
The reference answers each new input in the sandbox and one it fails on is dropped; what remains
may still break a constraint the text states and no seed shows, so the jurors on it are graded
evidence, never definitive.
"""

from __future__ import annotations

import random
import re

# part of Ex-fuzz's and S5-fuzz's cache keys: bump it when the rules below change
VERSION = "2"
_INT = re.compile(r"[+-]?(?:0|[1-9]\d*)")  # "0010" is a string of digits, not a number
_DEC = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?")
_WORD = re.compile(r"[A-Za-z]+")
_GRID = re.compile(r"[.#*xXoO01_-]{3,}|\d{2,}")


def _lines(text: str) -> list[list[str]]:
    return [ln.split() for ln in text.rstrip("\n").split("\n")]


def _join(lines: list[list[str]]) -> str:
    return "\n".join(" ".join(toks) for toks in lines) + "\n"


def _structural(lines: list[list[str]]) -> set[tuple[int, int]]:
    """The integers that count something later in the input."""
    out: set[tuple[int, int]] = set()
    for r, toks in enumerate(lines):
        later = lines[r + 1:]
        counts = {len(t) for t in later} | {len(later), sum(1 for t in later if t)}
        counts |= {len(tok) for t in later for tok in t}
        for c, tok in enumerate(toks):
            if _INT.fullmatch(tok) and int(tok) in counts:
                out.add((r, c))
    return out


def _int_choices(value: int, pool: list[int], rng: random.Random) -> list[int]:
    picks = [value + 1, value - 1, value * 2, value // 2, *rng.sample(pool, min(3, len(pool)))]
    low = 1 if value >= 1 else 0 if value == 0 else None
    return [p for p in picks if p != value and (low is None or p >= low)]


def _mutate_int(lines: list[list[str]], fixed: set[tuple[int, int]], rng: random.Random) -> bool:
    spots = [(r, c) for r, toks in enumerate(lines) for c, tok in enumerate(toks)
             if _INT.fullmatch(tok) and (r, c) not in fixed]
    if not spots:
        return False
    pool = [int(t) for toks in lines for t in toks if _INT.fullmatch(t)]
    r, c = rng.choice(spots)
    value = int(lines[r][c])
    others = [int(t) for k, t in enumerate(lines[r]) if k != c and _INT.fullmatch(t)]
    row = [value, *others]
    if len(row) >= 3 and sorted(row) == list(range(1, len(row) + 1)):
        return False  # a permutation: only its order may change
    for new in _int_choices(value, pool, rng):
        if len(lines[r]) <= 4 and any((new > w) != (value > w) or (new < w) != (value < w) for w in others):
            continue  # an order flipped, a tie made or broken: ``a < b`` may be a guarantee
        if len(row) >= 3 and not min(row) <= new <= max(row):
            continue
        lines[r][c] = str(new)
        return True
    return False


def _mutate_array(lines: list[list[str]], fixed: set[tuple[int, int]], rng: random.Random) -> bool:
    rows = [r for r, toks in enumerate(lines) if len(toks) >= 3 and all(_INT.fullmatch(t) or _DEC.fullmatch(t)
                                                                         for t in toks)
            and not any((r, c) in fixed for c in range(len(toks)))]
    if not rows:
        return False
    r = rng.choice(rows)
    toks = list(lines[r])
    how = rng.choice(("reverse", "sort", "shuffle"))
    if how == "reverse":
        toks.reverse()
    elif how == "sort":
        toks.sort(key=float)
    else:
        rng.shuffle(toks)
    if toks == lines[r]:
        return False
    lines[r] = toks
    return True


def _mutate_word(lines: list[list[str]], fixed: set[tuple[int, int]], rng: random.Random) -> bool:
    spots = [(r, c) for r, toks in enumerate(lines) for c, tok in enumerate(toks)
             if _WORD.fullmatch(tok) and len(tok) > 1]
    grids = [(r, c) for r, toks in enumerate(lines) for c, tok in enumerate(toks)
             if _GRID.fullmatch(tok) and not _INT.fullmatch(tok)]
    spots = [s for s in spots if s not in fixed]
    if not spots and not grids:
        return False
    r, c = rng.choice(spots + grids)
    word = list(lines[r][c])
    if (r, c) in grids:
        cells = sorted({ch for toks in lines for tok in toks if _GRID.fullmatch(tok) for ch in tok})
        k = rng.randrange(len(word))
        word[k] = rng.choice([ch for ch in cells if ch != word[k]] or [word[k]])
    else:
        letters = sorted({ch for toks in lines for tok in toks if _WORD.fullmatch(tok) for ch in tok
                          if ch.isupper() == word[0].isupper()})
        how = rng.choice(("swap", "replace", "reverse"))
        if how == "swap":
            i, j = rng.sample(range(len(word)), 2)
            word[i], word[j] = word[j], word[i]
        elif how == "replace":
            k = rng.randrange(len(word))
            word[k] = rng.choice([ch for ch in letters if ch != word[k]] or [word[k]])
        else:
            word.reverse()
    new = "".join(word)
    if new == lines[r][c]:
        return False
    lines[r][c] = new
    return True


def mutate_io(seeds: list[str], count: int, *, seed: int) -> list[str]:
    """Up to ``count`` new inputs from ``seeds`` (each different from every seed and from the others)."""
    rng = random.Random(seed)
    usable = [s for s in seeds if s.strip()]
    out: list[str] = []
    seen = set(usable)
    for _ in range(count * 20):
        if len(out) >= count or not usable:
            break
        base = rng.choice(usable)
        lines = _lines(base)
        fixed = _structural(lines)
        changed = False
        for _ in range(rng.choice((1, 1, 2))):
            op = rng.choice((_mutate_int, _mutate_int, _mutate_array, _mutate_word))
            changed |= op(lines, fixed, rng)
        new = _join(lines)
        if changed and new not in seen:
            seen.add(new)
            out.append(new)
    return out
