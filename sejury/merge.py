"""How the members' scores become the verdict's score: the evidence-first rule (the default) or
the papers' mean.

Every member sits in one of three tiers, read from its spec's kind (no list of names):

- *definitive* evidence against the candidate is a fact a juror reports (``StrategyResult.against``):
  one of the sample's own tests fails, the candidate does not load or compile where the reference
  does, or the harness saw it tamper with the run.  It is not a score but a veto.
- *graded* evidence: the evidence jurors (``Kind.EVIDENCE``: the sample's tests, S5-exec, S5-diff,
  S5-fuzz, Ex-fuzz, ...), each a pass or agreement ratio, merged by their weights (a suite's
  mutation score when ``--mutation-check`` measured it).
- *opinion*: the model's strategies and the similarity metrics.

Evidence first: the graded evidence decides which side of the pass mark the score falls on (it
passes when the evidence mean reaches ``evidence_pass``, 100 by default: every executed check
holds), and the opinion moves the score within that side (it counts ``OPINION_SHARE`` of the
mix).  Definitive evidence keeps the score below the pass mark whatever else says.  Without any
graded evidence the opinion alone decides, and the verdict says so (``grounds="opinion"``).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from sejury.review import ReviewPolicy, review_reasons
from sejury.schema import Status, StrategyResult, Verdict, team_mean

MergeRule = Literal["evidence_first", "mean"]
Grounds = Literal["definitive", "evidence", "opinion"]

# what each kind of grounds means, as the CLI's table and the trace page say it
GROUNDS: dict[str, str] = {"definitive": "definitive evidence against it", "evidence": "executed evidence",
                           "opinion": "the model's opinion only"}
OPINION_SHARE = 0.2  # the opinion's share of the score when there is graded evidence too
BELOW = 1.0  # a candidate on the failing side scores at most pass mark - BELOW


@dataclass(frozen=True)
class Merged:
    score: float | None
    grounds: Grounds | None
    against: list[str] = field(default_factory=list)
    evidence: float | None = None  # the graded evidence's weighted mean (0-100)
    opinion: float | None = None  # the opinion members' mean (0-100)


def _scored(results: Iterable[StrategyResult]) -> list[StrategyResult]:
    return [r for r in results if r.status is Status.SCORED and r.score is not None]


def against_of(results: Iterable[StrategyResult]) -> list[str]:
    """The definitive evidence against the candidate, one line per juror that saw it (feeders
    included: a juror that ran only to feed another still ran the candidate)."""
    seen: dict[str, str] = {}
    for r in results:
        if r.against and r.against not in seen.values():
            seen[r.strategy.paper_name] = r.against
    return [f"{name}: {why}" for name, why in seen.items()]


def split_tiers(members: Iterable[StrategyResult]) -> tuple[list[StrategyResult], list[StrategyResult]]:
    """The scored members as (graded evidence, opinion)."""
    scored = _scored(members)
    return [r for r in scored if r.strategy.is_evidence], [r for r in scored if not r.strategy.is_evidence]


def evidence_curve(e: float, pass_mark: float, evidence_pass: float) -> float:
    """The graded evidence's mean on the score's scale: ``evidence_pass`` lands on the pass mark,
    0 on 0 and 100 on 100, linearly in between (at ``evidence_pass`` = 100 every point below it
    lies on the failing side)."""
    if e >= evidence_pass:
        if evidence_pass >= 100:
            return 100.0
        return pass_mark + (100 - pass_mark) * (e - evidence_pass) / (100 - evidence_pass)
    return pass_mark * e / evidence_pass if evidence_pass > 0 else pass_mark


def merge(members: list[StrategyResult], every: Iterable[StrategyResult], *, rule: MergeRule, pass_mark: float,
          evidence_pass: float = 100.0) -> Merged:
    """The verdict's score from the team's ``members`` (``every`` result, feeders included, is
    read for definitive evidence)."""
    graded, opinion = split_tiers(members)
    return merge_scores([(r.score, r.weight) for r in graded if r.score is not None],
                        [(r.score, r.weight) for r in opinion if r.score is not None], against_of(every),
                        rule=rule, pass_mark=pass_mark, evidence_pass=evidence_pass)


def merge_scores(graded: list[tuple[float, float]], opinion: list[tuple[float, float]], against: list[str], *,
                 rule: MergeRule, pass_mark: float, evidence_pass: float = 100.0) -> Merged:
    """The rule on bare (score, weight) pairs of the two tiers and the definitive evidence: what the
    supervisor merges, and what calibration tries on recorded scores."""
    e = team_mean([s for s, _ in graded], [w for _, w in graded]) if graded else None
    o = statistics.fmean(s for s, _ in opinion) if opinion else None
    if rule == "mean":
        scored = graded + opinion
        mean = team_mean([s for s, _ in scored], [w for _, w in scored])
        grounds: Grounds | None = None if mean is None else "definitive" if against else \
            "evidence" if graded else "opinion"
        return Merged(mean, grounds, against, e, o)
    if e is None and o is None:
        return Merged(None, "definitive" if against else None, against)
    if e is None:
        assert o is not None
        score, passes = o, o >= pass_mark
        grounds = "opinion"
    else:
        lifted = evidence_curve(e, pass_mark, evidence_pass)
        score = lifted if o is None else (1 - OPINION_SHARE) * lifted + OPINION_SHARE * o
        passes = e >= evidence_pass
        grounds = "evidence"
    if against:
        passes, grounds = False, "definitive"
    score = max(score, pass_mark) if passes else max(0.0, min(score, pass_mark - BELOW))
    return Merged(round(score, 2), grounds, against, e, o)


def stamp(verdict: Verdict, *, rule: MergeRule, pass_mark: float, evidence_pass: float = 100.0,
          policy: ReviewPolicy | None = None) -> Verdict:
    """``verdict`` with its score merged by ``rule`` at ``pass_mark`` from its members' results,
    and what follows from it: the grounds, the definitive evidence, ``passed`` and ``needs_review``
    (``review.review_reasons`` at ``policy``, by default the pass mark with the default limits)."""
    team = {s.value for s in verdict.team}
    members = [r for name, r in verdict.strategies.items() if name in team and r.in_team]
    m = merge(members, verdict.strategies.values(), rule=rule, pass_mark=pass_mark, evidence_pass=evidence_pass)
    score = None if m.score is None else round(m.score, 2)
    scaled = round(verdict.scale.map(score), 3) if verdict.scale and score is not None else None
    out = verdict.model_copy(update={
        "score": score, "scaled_score": scaled, "status": "scored" if score is not None else "unscored",
        "merge": rule, "grounds": m.grounds, "against": m.against, "pass_mark": pass_mark,
        "passed": None if score is None else score >= pass_mark})
    reasons = review_reasons(out, policy or ReviewPolicy(threshold=pass_mark))
    return out.model_copy(update={"needs_review": bool(reasons), "review_reasons": reasons})
