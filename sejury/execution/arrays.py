"""numpy arrays and pandas frames and series as S5-fuzz's inputs: values read from the expressions
of a test (``array_exprs.py``), mutated keeping their shape, dtype and column names, and written
back as source text (``repr``), which the sealed harness's checker evaluates (``np``, ``pd``).

BigCodeBench's tests pass such values built by expressions (``np.array([[1, 2], [3, 4]])``,
``-np.ones((3, 2))``, ``pd.DataFrame({'a': [1, 2]})``).  A value keeps its cells (row-major, up to
``SHOWN`` of them) or, for a larger array, a rule for them: ``start + step * i`` (``step`` 0: a
constant, ``np.ones``).  The mutations change the element values only, so the call stays in the
problem's domain as far as the shape goes:

- a number cell perturbed (``fuzz``'s integer and float rules, three drawn), every sign flipped,
  the cells reversed, a constant made a ramp (``c, c + 1, ...``), all shifted by one;
- a boolean cell flipped, every one flipped; a string cell replaced by another of the same
  array's or column's strings, or the strings reversed (no new string is made up);
- a frame: one column (drawn) mutated as above; a series as a one-dimensional array.

The domain rule is ``fuzz.fits``'s, on the elements: no negative number (no zero) where every
seed's elements at that place (and in that column) are not negative (are positive).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import Any

Cell = Any  # int | float | bool | str | None
SHOWN = 100  # cells written out; a larger array is written by its rule (np.full, np.arange)
MAX_CELLS = 10 ** 5  # a larger array is not read (np.ones((10**9,)) is refused)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _finite(x: Any) -> bool:
    return _number(x) and math.isfinite(x)


def cell_text(c: Cell) -> str:
    if isinstance(c, float) and not math.isfinite(c):
        return "np.nan" if math.isnan(c) else ("np.inf" if c > 0 else "-np.inf")
    return repr(c)


def _nested(cells: tuple[Cell, ...], shape: tuple[int, ...]) -> str:
    if len(shape) == 1:
        return "[" + ", ".join(map(cell_text, cells)) + "]"
    size = len(cells) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nested(cells[i * size:(i + 1) * size], shape[1:]) for i in range(shape[0])) + "]"


def _dtype(dtype: str | None) -> str:
    return f", dtype={dtype!r}" if dtype else ""


def _lowest(values: list[Any]) -> float | None:
    nums = [x for x in values if _finite(x)]
    return min(nums) if nums else None


def _sign_fits(low: float | None, seen: list[float | None]) -> bool:
    from sejury.execution.fuzz import sign_fits  # here: fuzz imports this module

    lows = [x for x in seen if x is not None]
    return low is None or sign_fits(low, lows)


def cell_variants(cells: tuple[Cell, ...], rng: random.Random) -> list[tuple[Cell, ...]]:
    """Variants of a run of cells of one array or column, its length kept."""
    from sejury.execution.fuzz import MAX_INT, _floats, _ints, _some

    out: list[tuple[Cell, ...]] = []
    nums = [i for i, c in enumerate(cells) if _finite(c)]
    if nums:
        k = rng.choice(nums)
        x = cells[k]
        options = _ints(x) if isinstance(x, int) else _floats(x)
        out += [(*cells[:k], v, *cells[k + 1:]) for v in _some([v for v in options if v != x], rng)]
        if any(cells[i] != 0 for i in nums):
            signed = set(nums)
            out.append(tuple(-c if i in signed else c for i, c in enumerate(cells)))
        if len({cells[i] for i in nums}) == 1 and len(nums) > 1:  # a constant made a ramp
            rank = {i: j for j, i in enumerate(nums)}
            out.append(tuple(c + rank[i] if i in rank else c for i, c in enumerate(cells)))
        out.append(tuple(c + 1 if _finite(c) else c for c in cells))
        out = [v for v in out if all(abs(c) <= MAX_INT for c in v if _finite(c))]
    flags = [i for i, c in enumerate(cells) if isinstance(c, bool)]
    if flags:
        k = rng.choice(flags)
        out.append((*cells[:k], not cells[k], *cells[k + 1:]))
        out.append(tuple(not c if isinstance(c, bool) else c for c in cells))
    words = [i for i, c in enumerate(cells) if isinstance(c, str)]
    distinct = sorted({cells[i] for i in words})
    if len(distinct) > 1:
        k = rng.choice(words)
        other = rng.choice([w for w in distinct if w != cells[k]])
        out.append((*cells[:k], other, *cells[k + 1:]))
    if len(set(map(repr, cells))) > 1:
        out.append(cells[::-1])
    return [v for v in out if v != cells]


class Built:
    """A value a test builds with a library's constructor (written back by ``repr``)."""

    def mutations(self, rng: random.Random, seen: list[Any]) -> list[Any]:
        raise NotImplementedError

    def fits(self, seen: list[Any]) -> bool:
        raise NotImplementedError


@dataclass(frozen=True)
class NdArray(Built):
    """``np.array``: its shape, the dtype written (None: numpy's inference), and its cells
    (row-major) or, when ``cells`` is None, ``start + step * i`` (a constant when ``step`` is 0)."""

    shape: tuple[int, ...]
    dtype: str | None = None
    cells: tuple[Cell, ...] | None = None
    start: Cell = 0
    step: int | float = 0

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @classmethod
    def generated(cls, shape: tuple[int, ...], dtype: str | None, start: Cell, step: int | float = 0) -> NdArray:
        """An array by its rule, its cells written out when there are few."""
        n = math.prod(shape)
        if n > SHOWN:
            return cls(shape, dtype, None, start, step)
        cells = tuple(start if isinstance(start, bool) else start + step * i for i in range(n))
        return cls(shape, dtype, cells)

    def __repr__(self) -> str:
        if self.size == 0:
            return f"np.zeros({self.shape!r}{_dtype(self.dtype)})"
        if self.cells is not None:
            return f"np.array({_nested(self.cells, self.shape)}{_dtype(self.dtype)})"
        if self.step == 0:
            return f"np.full({self.shape!r}, {cell_text(self.start)}{_dtype(self.dtype)})"
        ramp = f"(np.arange({self.size}) * {self.step!r} + {self.start!r}).reshape({self.shape!r})"
        return ramp + (f".astype({self.dtype!r})" if self.dtype else "")

    def negated(self) -> NdArray | None:
        """``-value``; None where numpy refuses it or it would wrap (booleans, strings, unsigned)."""
        if (self.dtype or "").startswith(("u", "bool", "str", "object")):
            return None
        if self.cells is not None:
            if not all(_number(c) for c in self.cells):
                return None
            return replace(self, cells=tuple(-c for c in self.cells))
        if not _number(self.start):
            return None
        return replace(self, start=-self.start, step=-self.step)

    def reshaped(self, shape: tuple[int, ...]) -> NdArray | None:
        return replace(self, shape=shape) if math.prod(shape) == self.size else None

    def low(self) -> float | None:
        if self.cells is not None:
            return _lowest(list(self.cells))
        if not _finite(self.start):
            return None
        return float(min(self.start, self.start + self.step * (self.size - 1)))

    def mutations(self, rng: random.Random, seen: list[Any]) -> list[Any]:
        from sejury.execution.fuzz import MAX_INT

        if self.cells is not None:
            return [replace(self, cells=v) for v in cell_variants(self.cells, rng)]
        if self.size == 0:
            return []
        c, t = self.start, self.step
        if isinstance(c, bool):
            return [replace(self, start=not c)]
        if t == 0:
            made = [replace(self, step=1), replace(self, start=c + 1), replace(self, start=-c if c else 1)]
        else:
            made = [replace(self, start=c + 1), replace(self, start=-c, step=-t), replace(self, step=2 * t)]
        return [m for m in made if abs(m.start) + abs(m.step) * self.size <= MAX_INT]

    def fits(self, seen: list[Any]) -> bool:
        return _sign_fits(self.low(), [s.low() for s in seen if isinstance(s, NdArray)])


@dataclass(frozen=True)
class Series(Built):
    """``pd.Series(<list>)``, with the ``name`` and ``dtype`` written."""

    cells: tuple[Cell, ...]
    name: Cell = None
    dtype: str | None = None

    def __repr__(self) -> str:
        name = f", name={self.name!r}" if self.name is not None else ""
        return f"pd.Series([{', '.join(map(cell_text, self.cells))}]{name}{_dtype(self.dtype)})"

    def mutations(self, rng: random.Random, seen: list[Any]) -> list[Any]:
        return [replace(self, cells=v) for v in cell_variants(self.cells, rng)]

    def fits(self, seen: list[Any]) -> bool:
        return _sign_fits(_lowest(list(self.cells)),
                          [_lowest(list(s.cells)) for s in seen if isinstance(s, Series)])


@dataclass(frozen=True)
class Frame(Built):
    """``pd.DataFrame({<name>: <list>, ...})``: its columns, in order."""

    columns: tuple[tuple[Cell, tuple[Cell, ...]], ...]

    def __repr__(self) -> str:
        cols = ", ".join(f"{k!r}: [{', '.join(map(cell_text, v))}]" for k, v in self.columns)
        return f"pd.DataFrame({{{cols}}})"

    def mutations(self, rng: random.Random, seen: list[Any]) -> list[Any]:
        variants = [cell_variants(cells, rng) for _, cells in self.columns]
        mutable = [k for k, v in enumerate(variants) if v]
        if not mutable:
            return []
        k = rng.choice(mutable)
        name = self.columns[k][0]
        return [Frame((*self.columns[:k], (name, v), *self.columns[k + 1:])) for v in variants[k]]

    def fits(self, seen: list[Any]) -> bool:
        frames = [s for s in seen if isinstance(s, Frame)]
        for name, cells in self.columns:
            lows = [_lowest(list(v)) for f in frames for n, v in f.columns if n == name]
            if not _sign_fits(_lowest(list(cells)), lows):
                return False
        return True
