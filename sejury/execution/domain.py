"""The problem's domain as its own examples show it, applied to the model's tests.

S5's tests are the model's: it may call the function on inputs the problem never defines (a
triangle with sides of length 0, ``string_sequence(-1)``, ``fib4(-1)``), where the reference
and a correct candidate may answer differently (one raises, the other returns).  Such a test is
no evidence either way, yet S5-exec and S5-diff counted it against the candidate: on the shared
HumanEval sets that was most of the correct code they rejected.

The problem's examples (``calls.example_calls``: ``>>> f(3, 4, 5)`` in a docstring) stand in
for a written contract, as they do for Ex-fuzz's mutations, but only for the arguments that are
numbers: a count, a size, a side, an index.  Where every example's number at a place is positive
(at least 0), a test giving it zero or a negative number (a negative one) is outside the domain,
unless some example shows a negative number at any place (``multiply(14, -15)``: the problem
takes negatives).  Numbers inside lists, strings, emptiness and sizes are left to the tests: a
"list of integers" shown with positive ones usually takes negative ones too, and a problem often
states what an empty list gives without showing it.  A call whose arguments are not literals is
not read, and its test is kept; a problem that shows no example keeps every test.

Emptiness is an *edge*, not outside: where every example's string or list at a place is non-empty
and the problem's text never says "empty", a test giving an empty one there still runs (a benchmark
often tests ``rolling_max([])`` without showing it), but it is marked (``Domain.edge``): a
candidate rejected only for such tests needs review (``review.py``), since the problem may not
define the input (``max_element([])``; a candidate that asserts a non-empty list).  Dropping those
tests instead was measured and not kept (docs/results/2026-11-27-empty-inputs.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from sejury.execution.calls import Args, example_calls, render_call, seed_calls
from sejury.execution.fuzz import empty_unshown, is_number, places, sign_fits

MAX_SHOWN = 3  # tests left out, quoted in the record
EDGE_CHARS = 300  # a test's text as a mismatch quotes it (``differential.Mismatch.test``)
MAX_EDGES = 50  # edge tests kept in an execution's record
# in S5's cache key: a change here, or in which examples ``calls.example_calls`` reads, changes which tests run
DOMAIN_VERSION = 3


def within(value: Any, seen: list[Any], negatives: bool = False) -> bool:
    """Is ``value`` of a sign the examples' values ``seen`` at its place allow (``fuzz.sign_fits``)?
    Only a number is judged; ``negatives``: some example shows a negative number at another place,
    so the problem takes negative numbers (``multiply(14, -15)``)."""
    return not is_number(value) or negatives or sign_fits(value, seen)


STATES_EMPTY = re.compile(r"\bempty\b", re.IGNORECASE)  # the problem says what an empty input gives


def edge_only(edges: dict[str, str], failed: list[str], n_failed: int) -> str | None:
    """The first edge call, when each of the ``n_failed`` failures is listed in ``failed`` and is a
    test in ``edges`` (``TestExecution.edge_tests``: a test's text -> its edge call); else None."""
    if not n_failed or len(failed) != n_failed:
        return None
    calls = [edges.get(t[:EDGE_CHARS]) for t in failed]
    return calls[0] if all(calls) else None


def outside_note(n: int, shown: list[str]) -> str:
    """How a verdict says that ``n`` tests were left out, quoting the first call ``shown``."""
    return f"{n} outside the problem's domain" + (f" (e.g. {shown[0][:80]})" if shown else "")


@lru_cache(maxsize=1024)
def _literal_calls(unit: str, function: str, language: str) -> tuple[Args, ...]:
    """``seed_calls`` of one test, parsed once for both ``Domain.split`` and ``Domain.edges``."""
    try:
        return tuple(seed_calls(unit, function, language))
    except (ValueError, RecursionError):
        return ()


@dataclass(frozen=True)
class Domain:
    """The examples' values of ``function``, by position and by keyword."""

    function: str
    language: str
    by_pos: dict[int, list[Any]]
    by_name: dict[str, list[Any]]
    empty_stated: bool = True  # the problem's text says "empty": an empty input is no edge

    @classmethod
    def of(cls, problem: str, function: str | None, language: str) -> Domain | None:
        """The domain the problem's examples show, or None when it shows no call with literals."""
        if not function:
            return None
        try:
            examples = example_calls(problem, function, language)
        except (ValueError, RecursionError):
            return None
        if not examples:
            return None
        return cls(function, language, *places(examples), empty_stated=bool(STATES_EMPTY.search(problem)))

    @cached_property
    def negatives(self) -> bool:
        """Some example shows a negative number at some place."""
        return any(is_number(x) and x < 0 for seen in (*self.by_pos.values(), *self.by_name.values()) for x in seen)

    def fits(self, call: Args) -> bool:
        args, kwargs = call
        return all(within(a, self.by_pos.get(i, []), self.negatives) for i, a in enumerate(args)) and \
            all(within(a, self.by_name.get(name, []), self.negatives) for name, a in kwargs)

    def _calls(self, unit: str) -> tuple[Args, ...]:
        """The literal calls of the function in ``unit`` (a test's text); none where it does not read."""
        return _literal_calls(unit, self.function, self.language)

    def outside(self, unit: str) -> str | None:
        """The first call of the function in ``unit`` (a test's text) outside the domain, as a
        Python call, or None when every call it reads is inside (or none is read)."""
        return next((render_call(self.function, c) for c in self._calls(unit) if not self.fits(c)), None)

    def _empty_edge(self, call: Args) -> bool:
        args, kwargs = call
        return any(empty_unshown(a, self.by_pos.get(i, [])) for i, a in enumerate(args)) or \
            any(empty_unshown(a, self.by_name.get(name, [])) for name, a in kwargs)

    def edge(self, unit: str) -> str | None:
        """The first call of the function in ``unit`` giving an empty string or list where no
        example shows one (``fuzz.empty_unshown``, the fuzzers' own line) and the problem never
        says "empty" (as a Python call), or None."""
        if self.empty_stated:
            return None
        return next((render_call(self.function, c) for c in self._calls(unit) if self._empty_edge(c)), None)

    def edges(self, units: list[str]) -> dict[str, str]:
        """The units with an edge call (``edge``): each one's text (its first ``EDGE_CHARS``) -> the call."""
        found = {u[:EDGE_CHARS]: call for u in units if (call := self.edge(u))}
        return dict(list(found.items())[:MAX_EDGES])

    def split(self, units: list[str]) -> tuple[list[str], list[str]]:
        """The units inside the domain, and the call outside it of each unit left out."""
        kept: list[str] = []
        notes: list[str] = []
        for unit in units:
            call = self.outside(unit)
            if call is None:
                kept.append(unit)
            else:
                notes.append(call)
        return kept, notes

    def all_outside(self, notes: list[str]) -> str:
        """Why no test runs when every one is outside the domain."""
        return (f"every generated test calls {self.function} outside the domain the problem's examples show"
                + (f" (e.g. {notes[0][:120]})" if notes else ""))
