"""Values that depend on the random state.

The sealed Python harness starts every unit and every call of the problem's function from one
random state (``seed_random``), the same for the reference and the candidate.  That makes a value
repeatable, not comparable: a right program may draw its numbers in another order or through
another function (``int(random.random() * 6) + 1`` where the reference calls ``random.randint(1,
6)``), and its values then differ from the reference's although both are right.  BigCodeBench's own
tests check such outputs by their properties (a shape, a range, the columns), not their numbers.

So the reference answers the inputs twice, from two states (``ANOTHER_STATE``).  Where its value is
the same, the candidate's is compared as before.  Where it differs but its *form* is the same
(``differential.form``: the value with every number and quoted string left out: a list of 5 numbers, a
DataFrame of these columns' length and rows' count), the candidate's form is compared, and only
one way: a candidate of another form disagrees (a wrong program), another value of the same form is
not counted either way (any numbers of that form could be right, so it is no evidence), and the
very same value agrees.  Where even the form differs (a list of random length), the input is not
compared at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sejury.execution.differential import form as form  # how a shown value's form is read
from sejury.sandbox.libraries import imports

ANOTHER_STATE = 1
# modules whose functions draw from a random state (a reference importing none draws none; its
# second run would only cost time)
DRAWS = frozenset({"random", "numpy", "pandas", "sklearn", "scipy", "statsmodels", "seaborn", "faker", "secrets",
                   "uuid", "sympy", "networkx", "skimage", "nltk"})


def may_draw(language: str, reference: str) -> bool:
    """Whether the reference may draw random numbers: Python (the harness that seeds a state)
    importing one of ``DRAWS``."""
    return language == "python" and bool(imports(reference) & DRAWS)


@dataclass
class Settled:
    """The reference's values (from the usual state) split by how they depend on the state."""

    values: dict[int, list[str]]  # the units still compared (by value, or by form)
    by_form: set[int] = field(default_factory=set)  # units whose value depends on the state: compared by form
    dropped: int = 0  # units whose form depends on it too: not compared

    def artifacts(self) -> dict[str, int]:
        return {"random_by_form": len(self.by_form), "random_dropped": self.dropped} \
            if self.by_form or self.dropped else {}


def settle(first: dict[int, list[str]], again: dict[int, list[str]]) -> Settled:
    """``first`` (the reference's values from the usual state) against ``again`` (from
    ``ANOTHER_STATE``): a unit with the same values keeps them; one whose values differ only in
    their numbers and strings is compared by form; one whose form differs too is left out."""
    kept: dict[int, list[str]] = {}
    by_form: set[int] = set()
    dropped = 0
    for i, values in first.items():
        other = again.get(i)
        if other is None or other == values:
            kept[i] = values
        elif [form(v) for v in other] == [form(v) for v in values]:
            kept[i] = values
            by_form.add(i)
        else:
            dropped += 1
    return Settled(kept, by_form, dropped)


def lines(artifacts: dict[str, object]) -> list[str]:
    """What a verdict says of the inputs whose values depend on the random state."""
    shape, dropped = (n if isinstance(n := artifacts.get(k), int) else 0 for k in ("random_by_form", "random_dropped"))
    if not shape and not dropped:
        return []
    parts = [f"{shape} compared by their form only (numbers and strings left out; another value "
             "of the same form counts neither way, another form against)"] if shape else []
    parts += [f"{dropped} not compared (their form changes too)"] if dropped else []
    return [f"the reference's values depend on the random state on {shape + dropped} inputs "
            f"(it ran again from another state): {'; '.join(parts)}"]
