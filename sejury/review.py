"""When a verdict should not be acted on alone: the one definition of ``needs_review``.

The supervisor stamps every verdict with it (``Verdict.needs_review`` and ``review_reasons``, at the
judge's pass mark), so the CLI's table and JSON, run files, ``sejury serve``, the trace page and the
agent tool (``sejury.agent``, at its own threshold) all say the same thing.  A verdict needs review
when fewer jurors scored than the policy asks, when they disagree, when its score rests on the
model's opinion alone, when the evidence contradicts the opinion, when it passes although executed
tests fail, when it fails only on empty inputs the problem does not show, when the executed tests
are weak, when the sample's own tests could not be run or fail only in the sealed harness, when a
program's outputs were compared on a problem that accepts several answers, or when the harness
suspected the candidate of tampering with the run.
"""

from __future__ import annotations

import statistics

from pydantic import BaseModel, Field

from sejury.execution import languages
from sejury.execution.evidence import TestExecution
from sejury.execution.mutation import WEAK_SUITE
from sejury.schema import Status, StrategyResult, Verdict, team_mean

__all__ = ["FailingTest", "ReviewPolicy", "failing_tests", "review_reasons", "tampering", "weak_suite"]


class ReviewPolicy(BaseModel):
    """When a verdict passes, and when it should not be acted on without a human."""

    threshold: float = Field(50.0, ge=0, le=100)  # passed = score >= threshold
    max_spread: float = Field(50.0, ge=0, le=100)  # jurors' max - min above this: needs review
    min_scored: int = Field(2, ge=1)  # fewer scored jurors than this: needs review
    lowest: int = Field(2, ge=1)  # reasons of this many lowest-scoring jurors
    # with --mutation-check: the executed tests kill fewer mutants of the reference than this: needs review
    min_mutation_score: float = Field(WEAK_SUITE, ge=0, le=1)


class FailingTest(BaseModel):
    juror: str  # the juror that ran it: sample_tests (the caller's tests), generate_tests / test_pass, test_diff
    test: str
    why: str


def failing_tests(verdict: Verdict, limit: int = 5) -> list[FailingTest]:
    """The executed tests the candidate failed (the sample's own first), and the values S5-diff
    saw differ from the reference's; each once."""
    out: list[FailingTest] = []
    for name, result in verdict.strategies.items():
        ex = TestExecution.from_artifact(result.artifacts.get("execution"))
        if ex is None or ex.status != "ran":
            continue
        for suite in (ex.sample_tests, ex.candidate):
            if suite is None:
                continue
            if not suite.loaded:
                out.append(FailingTest(juror=name, test="(the code did not load)", why=suite.load_error[-300:]))
                continue
            out.extend(FailingTest(juror=name, test=languages.test_name(ex.language, f.get("test", "")),
                                   why=f.get("why", ""))
                       for f in suite.failures)
        if ex.differential is not None and "test_diff" in verdict.strategies:  # S5-diff: the values that differ
            for m in ex.differential.mismatches:
                theirs, mine = m.shown()
                out.append(FailingTest(juror="test_diff", test=m.test,
                                       why=f"returned {mine} where the reference returns {theirs}"))
    unique = {(t.test, t.why): t for t in reversed(out)}  # S5 and S5-exec report the same run
    return list(reversed(unique.values()))[:limit]


def _edge_only(verdict: Verdict, graded: list[StrategyResult]) -> str | None:
    """A verdict that fails on executed evidence where every check below 100 says that all it
    failed are tests giving an empty input the problem neither shows nor states
    (``artifacts["edge_only"]``, from ``domain.Domain.edge``): the first such call, or None."""
    if verdict.passed is not False or verdict.grounds != "evidence":
        return None
    below = [r for r in graded if r.score is not None and r.score < 100]
    edges = [r.artifacts.get("edge_only") for r in below]
    return str(edges[0]) if below and all(edges) else None


def weak_suite(verdict: Verdict, minimum: float) -> str:
    """Why the executed evidence is weak, when ``--mutation-check`` found its tests let most
    mutants of the reference through and a juror of the team stands on them; "" otherwise."""
    team = {s.value for s in verdict.team}
    leans = any(s.is_evidence or s.value.startswith("generate_tests") for s in verdict.team)
    for r in verdict.strategies.values():
        ex = TestExecution.from_artifact(r.artifacts.get("execution"))
        if not leans or ex is None or ex.mutation is None or ex.mutation.score is None:
            continue
        if ex.mutation.score < minimum and (r.strategy.value in team or not r.in_team):
            m = ex.mutation
            return (f"the executed tests are weak: they kill {m.killed}/{m.run} mutants of the reference "
                    f"(mutation score {m.score:.2f} < {minimum:g})")
    return ""


def tampering(results: dict[str, StrategyResult]) -> list[str]:
    """What the harness saw the candidate do to the run (forged result lines, a killed harness),
    juror by juror; each observation once."""
    seen: list[str] = []
    for r in results.values():
        ex = TestExecution.from_artifact(r.artifacts.get("execution"))
        for what in (ex.tampering if ex is not None else []):
            if what not in seen:
                seen.append(what)
        for what in r.artifacts.get("tampering", []):
            if what not in seen:
                seen.append(what)
    return seen


def several_answers(results: dict[str, StrategyResult]) -> bool:
    """Did a juror compare a program's outputs on a problem that accepts several answers?"""
    for r in results.values():
        ex = TestExecution.from_artifact(r.artifacts.get("execution"))
        if r.artifacts.get("several_answers") or (ex is not None and ex.several_answers):
            return True
    return False


def _unconfirmed(result: StrategyResult) -> bool:
    """Did the sealed harness fail some of the sample's tests that a plain run of the candidate
    passed (``evidence.confirm_failures``: the harness may be at fault)?"""
    ex = TestExecution.from_artifact(result.artifacts.get("execution"))
    return bool(ex is not None and ex.candidate is not None and ex.candidate.unconfirmed)


def _members(verdict: Verdict) -> list[StrategyResult]:
    team = {s.value for s in verdict.team}
    return [r for name, r in verdict.strategies.items() if r.in_team and name in team]


def review_reasons(verdict: Verdict, policy: ReviewPolicy | None = None) -> list[str]:
    """Why ``verdict`` should not be acted on alone at ``policy.threshold`` ([]: it can be)."""
    p = policy or ReviewPolicy()
    members = _members(verdict)
    scored = [r for r in members if r.status is Status.SCORED and r.score is not None]
    out: list[str] = []
    need = min(p.min_scored, len(verdict.team))  # a one-member team needs its one score
    if len(scored) < need:
        out.append(f"only {len(scored)} of {len(verdict.team)} jurors scored (need {need})")
    graded = [r for r in scored if r.strategy.is_evidence]
    opinion = [r for r in scored if not r.strategy.is_evidence]
    # evidence first, on evidence: the executed checks decide, so it is their disagreement that counts
    # (the opinion's own spread is noise there; the evidence against the opinion is a reason of its own)
    judges = graded if verdict.merge == "evidence_first" and verdict.grounds in ("evidence", "definitive") \
        and graded else scored
    spread = [r.score for r in judges if r.score is not None]
    if spread and max(spread) - min(spread) > p.max_spread:
        which = "the executed checks" if judges is graded else "the jurors"
        out.append(f"{which} disagree: scores from {min(spread):g} to {max(spread):g}")
    if verdict.grounds == "opinion":
        out.append("no executed evidence: the score rests on the model's opinion (and similarity metrics) alone"
                   + ("" if any(r.strategy.is_evidence for r in members) else "; judge with --execute"))
    if graded and opinion:
        e = team_mean([r.score for r in graded if r.score is not None], [r.weight for r in graded])
        o = statistics.fmean(r.score for r in opinion if r.score is not None)
        if e is not None and abs(e - o) > p.max_spread:
            out.append(f"the evidence contradicts the opinion: executed checks {e:.0f}, the model's opinion {o:.0f}")
    edge = _edge_only(verdict, graded)
    if edge:
        out.append(f"it fails only on an empty input the problem neither shows nor states ({edge[:80]}): the "
                   "problem may not define it")
    score = verdict.score
    fails = failing_tests(verdict)
    if fails and score is not None and score >= p.threshold:
        out.append(f"it passes at {p.threshold:g} although {len(fails)} executed test(s) fail")
    if verdict.against and score is not None and score >= p.threshold:
        out.append(f"it passes at {p.threshold:g} although {verdict.against[0]}")
    weak = weak_suite(verdict, p.min_mutation_score)
    if weak:
        out.append(weak)
    own = verdict.strategies.get("sample_tests")
    if own is not None and own.in_team and own.status is Status.UNSCORED:
        out.append(f"the sample's own tests did not count: {own.detail or 'unscored'}")
    elif own is not None and own.in_team and own.detail and _unconfirmed(own):
        out.append(own.detail)
    if several_answers(verdict.strategies):
        out.append("the problem accepts several answers: outputs were compared with the reference's, so a "
                   "different right answer counts as a mismatch")
    seen = tampering(verdict.strategies)
    if seen:
        out.append("tampering suspected: " + "; ".join(seen))
    return out
