"""The evidence-first merge and the review rule, on hand-made results (wiring only: the real
sandbox runs are in test_sample_tests.py and test_tamper.py)."""

from __future__ import annotations

import pytest

from sejury.config import JudgeConfig
from sejury.merge import evidence_curve, merge, stamp
from sejury.review import ReviewPolicy, review_reasons
from sejury.schema import Spread, Status, Strategy, StrategyResult, Task, TeamFile, Verdict


def result(name: str, score: float | None, *, against: str | None = None, weight: float = 1.0) -> StrategyResult:
    return StrategyResult(strategy=Strategy(name), status=Status.SCORED if score is not None else Status.UNSCORED,
                          score=score, against=against, weight=weight)


def verdict(**scores: float | None) -> Verdict:
    results = {n: result(n, s) for n, s in scores.items()}
    got = [s for s in scores.values() if s is not None]
    return Verdict(sample_id="x", task=Task.CODE_GENERATION, status="unscored", score=None,
                   team=[Strategy(n) for n in scores], strategies=results, spread=Spread.of(got))


def test_evidence_decides_the_side_and_opinion_moves_within_it() -> None:
    full = verdict(direct=0, test_pass=100)  # every check holds, the model says 0
    partial = verdict(direct=100, test_pass=90, test_diff=90)  # one check in ten fails, the model says 100
    a, b = (stamp(v, rule="evidence_first", pass_mark=50) for v in (full, partial))
    assert a.passed is True and a.score == 80 and a.grounds == "evidence"
    assert b.passed is False and b.score == 49 and b.grounds == "evidence"  # 0.8 * 45 + 0.2 * 100 = 56, capped at 49
    # the mean would pass the partial one and rank them the other way round
    assert stamp(partial, rule="mean", pass_mark=50).score == pytest.approx(93.33)
    assert stamp(full, rule="mean", pass_mark=50).score == 50


def test_definitive_evidence_keeps_it_below_the_mark_whatever_else_says() -> None:
    v = verdict(direct=100, rethink=100, sample_tests=None)
    v.strategies["sample_tests"] = result("sample_tests", 66.67, against="fails 1 of the sample's 3 tests")
    s = stamp(v, rule="evidence_first", pass_mark=50)
    assert s.passed is False and s.score is not None and s.score < 50
    assert s.grounds == "definitive" and s.against == ["Sample-tests: fails 1 of the sample's 3 tests"]
    # a feeder outside the team that ran the candidate counts too
    v2 = verdict(direct=100, test_pass=100)
    v2.strategies["generate_tests"] = result("generate_tests", 80, against="the candidate does not load").model_copy(
        update={"in_team": False})
    assert stamp(v2, rule="evidence_first", pass_mark=50).passed is False
    # under the mean (a calibrated file's rule) it is not capped, but it needs review
    m = stamp(v, rule="mean", pass_mark=50)
    assert m.passed is True and m.needs_review and any("although" in r for r in m.review_reasons)


def test_opinion_alone_decides_only_without_evidence_and_says_so() -> None:
    s = stamp(verdict(direct=90, rethink=70), rule="evidence_first", pass_mark=50)
    assert s.score == 80 and s.passed is True and s.grounds == "opinion"
    assert s.needs_review and any("opinion" in r and "--execute" in r for r in s.review_reasons)
    none = stamp(verdict(direct=None, test_pass=None), rule="evidence_first", pass_mark=50)
    assert none.score is None and none.passed is None and none.status == "unscored" and none.needs_review


def test_weights_and_the_evidence_pass_point() -> None:
    weak = merge([result("test_pass", 100, weight=0.2), result("test_diff", 50)], [], rule="evidence_first",
                 pass_mark=50, evidence_pass=100)
    assert weak.evidence == pytest.approx((100 * 0.2 + 50) / 1.2)
    assert evidence_curve(90, 50, 90) == 50 and evidence_curve(95, 50, 90) == 75 and evidence_curve(45, 50, 90) == 25
    assert evidence_curve(99.9, 50, 100) == pytest.approx(49.95) and evidence_curve(100, 50, 100) == 100


def test_evidence_against_opinion_is_flagged() -> None:
    v = stamp(verdict(direct=10, rethink=20, test_pass=100, test_diff=100), rule="evidence_first", pass_mark=50)
    assert v.passed is True
    assert any("contradicts" in r for r in v.review_reasons)
    assert review_reasons(v, ReviewPolicy(max_spread=100)) == []


def test_a_calibrated_team_file_keeps_its_rule_and_mark() -> None:
    calibrated = TeamFile(strategies=[Strategy("direct")], calibration={"n": 20}, threshold=70)
    assert JudgeConfig(team=calibrated).effective_merge() == "mean"
    assert JudgeConfig(team=calibrated).effective_pass_mark() == 70
    assert JudgeConfig(team=calibrated, pass_mark=40).effective_pass_mark() == 40
    named = TeamFile(strategies=[Strategy("direct")], calibration={"n": 20}, merge="evidence_first")
    assert JudgeConfig(team=named).effective_merge() == "evidence_first"
    assert JudgeConfig(team=named, merge="mean").effective_merge() == "mean"  # given, it wins, as --pass-mark
    assert JudgeConfig(team="S1,S5-exec").effective_merge() == "evidence_first"
    assert JudgeConfig().effective_pass_mark() == 50
