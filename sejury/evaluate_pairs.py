"""``sejury compare``'s comparisons, evaluated (``sejury evaluate COMPARISONS``): how the pairs were
decided (execution evidence, or the model), the model's position bias where it decided, and, where
the input rows say which attempt is right, pairwise accuracy.  Nothing here calls a model.

The model is asked in both orders (a shown first, then b shown first).  Of the pairs where both
replies were read: how often the two orders disagree (the flip rate), how often the choice followed
the position (the first shown both times, or the second both times: ``Comparison.flipped``, counted
a tie), and what each order chose.  An unreadable reply is counted apart, never as a verdict.
Accuracy is over the labelled pairs with exactly one right attempt, by two rules: flips as ties
(compare's own verdict), and flips decided by the first order (what asking once would have said).
The outputs (a report, a CSV, the figures in JSON) are ``evaluate_pairs_report``'s."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, Field, computed_field

from sejury.errors import InputError
from sejury.io import read_records
from sejury.rank.compare import Comparison, DecidedBy, Winner
from sejury.rank.evidence import Problem
from sejury.schema import Sample

Label = Literal["a", "b", "same"]  # which attempt is right; "same": both right, or both wrong
PairKey = tuple[str, str]  # (problem_id, language): how a comparison and its input rows meet
DECIDERS: tuple[str, ...] = get_args(DecidedBy)  # compare's order: the evidence's tiers, then the model
EVIDENCE = tuple(k for k in DECIDERS if k not in ("model", "undecided"))
ORDERS = ("a shown first", "b shown first")


class Outcomes(BaseModel):
    """Verdicts against labels: right, wrong, tie, over the pairs with one right attempt."""

    n: int = 0
    right: int = 0
    wrong: int = 0
    tie: int = 0

    def add(self, verdict: Winner | None, label: Label) -> None:
        self.n += 1
        if verdict is None or verdict == "tie":
            self.tie += 1
        elif verdict == label:
            self.right += 1
        else:
            self.wrong += 1

    @computed_field  # type: ignore[prop-decorator]
    @property
    def accuracy(self) -> float:
        """Right over every labelled pair (a tie is not right)."""
        return self.right / self.n if self.n else math.nan

    @computed_field  # type: ignore[prop-decorator]
    @property
    def decided_accuracy(self) -> float:
        """Right over the labelled pairs not tied."""
        return self.right / (self.right + self.wrong) if self.right + self.wrong else math.nan


class Decided(BaseModel):
    """The pairs one kind of evidence (``decided_by``) decided, and how they fared against the labels."""

    decided_by: str
    pairs: int = 0
    outcomes: Outcomes = Field(default_factory=Outcomes)


class Order(BaseModel):
    """What the model chose when asked in one order, over the pairs where both replies were read."""

    order: str  # a shown first / b shown first
    first: int = 0  # the attempt shown first chosen
    second: int = 0
    tie: int = 0
    unreadable: int = 0  # replies not read in this order, over every pair asked


class PositionBias(BaseModel):
    """The model, asked in both orders on the pairs the evidence did not decide."""

    asked: int = 0
    readable: int = 0  # both replies read: the pairs below count among these
    agree: int = 0  # the two orders gave the same verdict
    first_both: int = 0  # the first shown chosen in both orders (A/B then B/A: a then b)
    second_both: int = 0  # the second shown chosen in both orders
    half_tie: int = 0  # a tie in one order, a choice in the other
    one_unreadable: int = 0  # decided on one order's reply alone
    none_readable: int = 0  # no reply read: undecided, no verdict
    orders: list[Order] = Field(default_factory=lambda: [Order(order=o) for o in ORDERS])

    @computed_field  # type: ignore[prop-decorator]
    @property
    def flipped(self) -> int:
        """The choice followed the position, not the code (compare counts these as ties)."""
        return self.first_both + self.second_both

    @computed_field  # type: ignore[prop-decorator]
    @property
    def disagree(self) -> int:
        return self.readable - self.agree

    @computed_field  # type: ignore[prop-decorator]
    @property
    def flip_rate(self) -> float:
        """How often the order changed the verdict, over the pairs with both replies read."""
        return self.disagree / self.readable if self.readable else math.nan

    @computed_field  # type: ignore[prop-decorator]
    @property
    def position_rate(self) -> float:
        """How often the choice followed the position, over the pairs with both replies read."""
        return self.flipped / self.readable if self.readable else math.nan


class PairRow(BaseModel):
    """One comparison, as the per-pair CSV lists it."""

    line: int
    problem_id: str
    language: str
    decided_by: str
    winner: Winner
    a_first: Winner | None = None  # the model's verdict with a shown first (as a/b)
    b_first: Winner | None = None
    flipped: bool = False
    label: Label | None = None


class PairsEvaluation(BaseModel):
    file: str
    pairs: int
    decided: list[Decided]  # per decided_by, in compare's order of evidence
    bias: PositionBias
    labels_file: str | None = None  # the rows `sejury compare` read, where the labels come from
    label_field: str | None = None  # their field saying which attempt is right
    labelled: int = 0  # pairs with exactly one right attempt
    same_label: int = 0  # both right or both wrong: left out of accuracy
    unlabelled: int = 0
    accuracy: dict[str, Outcomes] = Field(default_factory=dict)  # rule -> outcomes
    rows: list[PairRow] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def by_evidence(self) -> int:
        return sum(d.pairs for d in self.decided if d.decided_by in EVIDENCE)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def by_model(self) -> int:
        return sum(d.pairs for d in self.decided if d.decided_by == "model")


FLIPS_AS_TIES = "flips as ties (compare's verdict)"
FLIPS_BY_FIRST = "flips by the first order (as if asked once, a shown first)"


def is_comparisons(path: Path) -> bool:
    """Whether a file's first record is a comparison (``winner`` and ``decided_by``), not a verdict."""
    try:
        with path.open(encoding="utf-8") as f:
            first = next((line for line in f if line.strip()), "")
        data = json.loads(first)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False  # the run file's reader says what is wrong
    return isinstance(data, dict) and "decided_by" in data and "winner" in data


def read_comparisons(path: str | Path) -> list[tuple[int, Comparison]]:
    """The comparisons of a ``sejury compare -o`` (or ``--json``) file, each with its line; a bad line
    raises, naming the file, line and field."""
    read = read_records(path, Comparison, what="a comparison, as `sejury compare -o` writes them")
    for n, c in read:
        if len(c.model_verdicts) not in (0, 2):
            raise InputError(f"{len(c.model_verdicts)} verdicts: the model is asked in two orders (or not at all)",
                             file=str(path), line=n, field="model_verdicts")
    return read


def labels(problems: Sequence[Problem], samples: Sequence[Sample], field: str, *, file: str) -> dict[PairKey, Label]:
    """Which attempt of each pair is right, from the field ``field`` of the rows ``sejury compare`` read
    (true/false, or a number: the higher is right); pairs whose rows lack it are left out."""
    by_id = {s.id: s for s in samples}
    out: dict[PairKey, Label] = {}
    for p in problems:
        if len(p.candidates) != 2 or p.ids is None:
            raise InputError(f"problem {p.id}: {len(p.candidates)} attempts; compare takes two per problem", file=file)
        key = (p.id, p.language)
        if key in out:
            raise InputError(f"problem {p.id} ({p.language}) appears twice: its comparisons cannot be told apart",
                             file=file)
        a, b = (_value(by_id[str(i)], field, file) for i in p.ids)
        if a is not None and b is not None:
            out[key] = "same" if a == b else ("a" if a > b else "b")
    return out


def _value(s: Sample, field: str, file: str) -> float | None:
    v = s.metadata.get(field)
    if v is None:
        return None
    if isinstance(v, bool | int | float) and not (isinstance(v, float) and math.isnan(v)):
        return float(v)
    raise InputError(f"sample {s.id}: {type(v).__name__} value; a label is true/false or a number", file=file,
                     field=field)


def evaluate_pairs(read: Sequence[tuple[int, Comparison]], *, file: str = "",
                   labelled: Mapping[PairKey, Label] | None = None, labels_file: str | None = None,
                   label_field: str | None = None) -> PairsEvaluation:
    """The figures of ``read`` (``read_comparisons``), with ``labelled`` (``labels``) if given."""
    decided = {k: Decided(decided_by=k) for k in DECIDERS}
    bias = PositionBias()
    rules = {FLIPS_AS_TIES: Outcomes(), FLIPS_BY_FIRST: Outcomes()}
    ev = PairsEvaluation(file=file, pairs=len(read), decided=[], bias=bias, labels_file=labels_file,
                         label_field=label_field)
    for n, c in read:
        label = labelled.get((c.problem_id, c.language)) if labelled is not None else None
        row = decided[c.decided_by]
        row.pairs += 1
        first, second = c.model_verdicts or (None, None)
        _bias(bias, c)
        ev.rows.append(PairRow(line=n, problem_id=c.problem_id, language=c.language, decided_by=c.decided_by,
                               winner=c.winner, a_first=first, b_first=second, flipped=c.flipped, label=label))
        if label is None:
            ev.unlabelled += 1
        elif label == "same":
            ev.same_label += 1
        else:
            ev.labelled += 1
            row.outcomes.add(c.winner, label)
            rules[FLIPS_AS_TIES].add(c.winner, label)
            rules[FLIPS_BY_FIRST].add(first if c.flipped else c.winner, label)
    ev.decided = [d for d in decided.values() if d.pairs]
    if labelled is not None:
        ev.accuracy = rules
    repeated = [k for k, v in Counter((c.problem_id, c.language) for _, c in read).items() if v > 1]
    if repeated:
        ev.notes.append(f"{len(repeated)} problem(s) appear more than once (an output appended to twice?); each "
                        "comparison counts.")
    if labelled is not None and ev.unlabelled:
        ev.notes.append(f"{ev.unlabelled} of {ev.pairs} pair(s) have no label: not in the labels' file (the one "
                        "compare read?), or a row without the field.")
    return ev


def _bias(bias: PositionBias, c: Comparison) -> None:
    if not c.model_verdicts:
        return
    bias.asked += 1
    verdicts = c.model_verdicts
    for order, v in zip(bias.orders, verdicts, strict=True):
        order.unreadable += v is None
    if None in verdicts:
        if verdicts == [None, None]:
            bias.none_readable += 1
        else:
            bias.one_unreadable += 1
        return
    bias.readable += 1
    shown = [_shown(v, first="a" if k == 0 else "b") for k, v in enumerate(verdicts)]
    for order, choice in zip(bias.orders, shown, strict=True):
        order.first += choice == "first"
        order.second += choice == "second"
        order.tie += choice == "tie"
    if verdicts[0] == verdicts[1]:
        bias.agree += 1
    elif shown == ["first", "first"]:
        bias.first_both += 1
    elif shown == ["second", "second"]:
        bias.second_both += 1
    else:
        bias.half_tie += 1


def _shown(v: Winner | None, *, first: str) -> str:
    """A verdict (as a/b) as the position it chose: the first shown, the second, or a tie."""
    return "tie" if v == "tie" else ("first" if v == first else "second")


def summary_line(ev: PairsEvaluation) -> str:
    """One line: how the pairs were decided, and how often the model chose by position."""
    line = f"{ev.pairs} pair(s), decided by " + ", ".join(f"{d.decided_by} {d.pairs}"
                                                          for d in sorted(ev.decided, key=lambda d: d.decided_by))
    b = ev.bias
    if b.readable:
        line += (f"; the model, asked in both orders on {b.readable}, chose by position on {b.flipped} "
                 f"(position bias {b.position_rate:.0%}: counted ties)")
    return line
