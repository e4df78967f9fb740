"""Pairwise comparison: which of two attempts at one problem is right (``Judge.compare``).

Execution evidence first, in ``ranking``'s tiers: an attempt that does not load loses; then the
user's tests; then, with a reference, agreement with it (valid tests and inputs), without one the
generated tests passed (not validated).  Two attempts that return the same values on every probe
input are a tie, with no model call.  Only where the evidence does not separate them does the model
decide, asked in both orders (A/B, then B/A): a verdict that follows the position and not the code
(A both times, or B both times) is a tie, and both replies stay in the trace."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from sejury import prompts
from sejury.context import JudgeContext
from sejury.errors import ScoreParseError
from sejury.rank import agreement
from sejury.rank.evidence import Collected, Problem, collect, stored
from sejury.rank.records import RankedCandidate
from sejury.rank.records import Winner as Winner  # compare's own name for it, as before
from sejury.schema import Task, TraceEvent
from sejury.scoring import ParsedReply, parse_bullets
from sejury.strategies._calls import Recorder, ask_score

DecidedBy = Literal["loading", "your tests", "reference", "stated examples", "generated tests", "same behaviour",
                    "model", "undecided"]
_CHOICE = re.compile(r"^\W*better\W*\s*(A|B|tie)\b", re.IGNORECASE | re.MULTILINE)


class Comparison(BaseModel):
    """Two attempts at one problem: the better one, and what decided it."""

    problem_id: str
    language: str
    winner: Winner
    decided_by: DecidedBy
    a: RankedCandidate
    b: RankedCandidate
    validated: bool  # the tests were checked on a reference
    model_verdicts: list[Winner | None] = Field(default_factory=list)  # per order asked (A/B, then B/A), as a/b
    flipped: bool = False  # the model's choice followed the position, not the code: counted a tie
    needs_review: bool = False
    reasons: list[str] = Field(default_factory=list)
    model_calls: int = 0
    sandbox_runs: int = 0
    seconds: float = 0.0
    events: list[TraceEvent] = Field(default_factory=list)
    trace_id: str | None = None  # where the trace store keeps it (``sejury trace ID``)


def parse_choice(text: str | None, *, finish_reason: str | None = None) -> ParsedReply:
    """``Better: A`` -> 100, ``B`` -> 0, ``tie`` -> 50 (the last such line), with the reasons before it."""
    if not text or not text.strip():
        raise ScoreParseError("empty reply")
    found = list(_CHOICE.finditer(text))
    if not found:
        raise ScoreParseError("no 'Better: A', 'Better: B' or 'Better: tie' line in the reply")
    last = found[-1]
    score = {"a": 100.0, "b": 0.0, "tie": 50.0}[last.group(1).lower()]
    return ParsedReply(score=score, reasons=parse_bullets(text[:last.start()]))


async def compare_pair(ctx: JudgeContext, p: Problem) -> Comparison:
    """``p.candidates`` holds the two attempts, a then b."""
    if len(p.candidates) != 2:
        raise ValueError("compare takes exactly two attempts")
    c = await collect(ctx, p)
    out = by_evidence(c, use_reference=p.reference is not None)
    asked = time.perf_counter()
    if out.decided_by == "undecided":
        await by_model(ctx, out, c)
    out.needs_review = out.decided_by in ("model", "undecided") or (
        out.decided_by == "generated tests" and not out.validated)
    out.model_calls = c.rec.calls
    out.seconds = round(c.seconds + time.perf_counter() - asked, 3)
    out.events = list(c.rec.events)
    stored(ctx, "compare", out)
    return out


def by_evidence(c: Collected, *, use_reference: bool) -> Comparison:
    """The comparison the runs decide (``decided_by`` "undecided" where they do not)."""
    reference = c.reference if use_reference else None
    ranked = {r.index: r for r in agreement.rank(c.behaviours, c.probe, reference=reference, notes=c.notes)}
    out = Comparison(problem_id=c.problem.id, language=c.language, winner="tie", decided_by="undecided",
                     a=ranked[0], b=ranked[1], validated=reference is not None, sandbox_runs=c.sandbox_runs)
    if use_reference and c.reference is None:
        out.reasons.append("the reference does not load or compile, so the tests could not be validated on it")
    _decide(out, c)
    return out


def _decide(out: Comparison, c: Collected) -> None:
    a, b = out.a, out.b
    user_a, user_b = _user_failed(a), _user_failed(b)
    if a.loaded != b.loaded:
        out.winner, out.decided_by = ("a" if a.loaded else "b"), "loading"
        out.reasons.append(f"attempt {'b' if a.loaded else 'a'} does not load or compile")
    elif not a.loaded:
        out.decided_by = "loading"
        out.reasons.append("neither attempt loads or compiles")
    elif user_a != user_b:
        out.winner, out.decided_by = ("a" if user_a < user_b else "b"), "your tests"
        out.reasons.append(f"your tests: a fails {user_a}, b fails {user_b}")
    elif out.validated and a.score != b.score:
        out.winner, out.decided_by = ("a" if a.score > b.score else "b"), "reference"
        out.reasons.append(f"against the reference: a scores {a.score:g}, b {b.score:g} ({agreement.REFERENCE_RULE})")
    elif not out.validated and (a.examples_passed or 0) != (b.examples_passed or 0):
        out.winner, out.decided_by = ("a" if (a.examples_passed or 0) > (b.examples_passed or 0) else "b"), \
            "stated examples"
        out.reasons.append(f"the problem's stated examples: a returns {a.examples_passed}, b {b.examples_passed} "
                           f"of {a.examples_total}")
    elif not out.validated and a.tests_passed != b.tests_passed:
        out.winner, out.decided_by = ("a" if a.tests_passed > b.tests_passed else "b"), "generated tests"
        out.reasons.append(f"generated tests (not validated: no reference): a passes {a.tests_passed}, "
                           f"b {b.tests_passed} of {a.tests_total}")
    elif a.group == b.group and c.probe.units:
        out.decided_by = "same behaviour"
        out.reasons.append(f"both return the same values on all {len(c.probe.units)} probe inputs")


def _user_failed(c: RankedCandidate) -> int:
    return (c.user_tests_total or 0) - (c.user_tests_passed or 0)


async def by_model(ctx: JudgeContext, out: Comparison, c: Collected) -> None:
    """The model's choice, asked in both orders (a choice that follows the position is a tie)."""
    p = c.problem
    m = await ask_both_orders(ctx, c.rec, p, p.candidates[0], p.candidates[1], reference=p.reference)
    out.model_verdicts = m.verdicts
    out.decided_by = "model" if m.read else "undecided"
    out.winner, out.flipped = m.winner, m.flipped
    out.reasons.append(m.reason)


@dataclass(frozen=True)
class ModelChoice:
    """The model's choice between two attempts a and b, asked in both orders."""

    verdicts: list[Winner | None]  # with a shown first, then with b shown first; None: unreadable (no vote)
    replies: list[str]  # the last reply in each order
    winner: Winner
    flipped: bool  # the choice followed the position (the one shown first both times): a tie
    read: bool  # at least one order's reply was read
    reason: str

    @property
    def both_read(self) -> bool:
        return None not in self.verdicts


async def ask_both_orders(ctx: JudgeContext, rec: Recorder, p: Problem, a: str, b: str, *, reference: str | None,
                          steps: tuple[str, str] = ("compare_ab", "compare_ba")) -> ModelChoice:
    """Compare's question on ``a`` and ``b``: asked with a shown first, then b (``steps`` name the two
    calls in the trace); an unreadable reply gets the repair turn, then is no vote."""
    verdicts: list[Winner | None] = []
    replies: list[str] = []
    for shown_first, shown_second, flip, step in ((a, b, False, steps[0]), (b, a, True, steps[1])):
        user = prompts.render("compare", Task.CODE_GENERATION, None, language=p.language, problem=p.problem,
                              reference=reference or "", first=shown_first, second=shown_second)
        before = len(rec.events)
        parsed, _ = await ask_score(ctx, rec, step, user, parse=parse_choice, repair="repair_choice")
        verdicts.append(None if parsed is None else _as_winner(parsed.score, flip))
        replies.append(next((e.reply or "" for e in reversed(rec.events[before:]) if e.kind == "llm_call"), ""))
    return model_choice(verdicts, replies)


def model_choice(verdicts: list[Winner | None], replies: list[str]) -> ModelChoice:
    """What two orders' verdicts decide: the same choice twice decides; a choice that follows the
    position (a, then b) is a tie; one unreadable order leaves the other's vote alone."""
    first, second = verdicts
    if first is None or second is None:
        known = first or second
        return ModelChoice(verdicts, replies, known or "tie", False, known is not None,
                           "the model's reply could not be read in one order" if known else
                           "the model's reply could not be read in either order")
    if first == second:
        return ModelChoice(verdicts, replies, first, False, True,
                           f"the model chose {first} in both orders" if first != "tie" else
                           "the model found them alike in both orders")
    flipped = {first, second} == {"a", "b"}
    return ModelChoice(verdicts, replies, "tie" if flipped else (first if second == "tie" else second), flipped, True,
                       f"the model chose {first} with a first and {second} with b first"
                       + (": the position decided, not the code (a tie)" if flipped else ""))


def _as_winner(score: float, flipped: bool) -> Winner:
    """A parsed choice (100: the first shown, 0: the second, 50: tie) as a or b."""
    if score == 50:
        return "tie"
    first_won = score > 50
    return "a" if first_won != flipped else "b"
