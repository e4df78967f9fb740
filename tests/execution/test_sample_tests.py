"""The sample's own tests count: a juror of their own, checked on the reference, run for real."""

from __future__ import annotations

import pytest
from langchain_core.messages import BaseMessage

from sejury import Judge, Sample, Status, Strategy
from sejury.graph.supervisor import resolve_team
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel, step_of

PROBLEM = "Write rle(s): the run-length encoding of s, a list of (character, run length) pairs, run by run."
RIGHT = ("def rle(s):\n    out = []\n    for c in s:\n        if out and out[-1][0] == c:\n"
         "            out[-1] = (c, out[-1][1] + 1)\n        else:\n            out.append((c, 1))\n    return out\n")
WRONG = "def rle(s):\n    return [(c, s.count(c)) for c in dict.fromkeys(s)]\n"
OWN_TESTS = ('assert rle("aab") == [("a", 2), ("b", 1)]\nassert rle("") == []\n'
             'assert rle("aba") == [("a", 1), ("b", 1), ("a", 1)]\n')
# what a weak model writes: every one of them passes on the wrong candidate too
GENERATED = '```python\nassert rle("aaa") == [("a", 3)]\nassert rle("ab") == [("a", 1), ("b", 1)]\n```'
S = Strategy("sample_tests")


def script(messages: list[BaseMessage]) -> str:
    return {**GOOD_REPLIES, "write_tests": GENERATED,
            "predict": "Checks:\n- first: PASS\n- second: PASS\nScore: 100"}[step_of(messages)]


def rle_sample(candidate: str, **kw: object) -> Sample:
    fields: dict[str, object] = {"reference": RIGHT, "tests": OWN_TESTS, **kw}
    return Sample(id="rle", task="code_generation", language="python", problem=PROBLEM, candidate=candidate,
                  **fields)  # type: ignore[arg-type]


def test_it_joins_the_default_team_only_with_tests_and_execution() -> None:
    with_tests, without = rle_sample(WRONG), rle_sample(WRONG, tests=None)
    assert resolve_team(with_tests, None, None, execute=True)[0] is S  # listed first
    assert S not in resolve_team(with_tests, None, None, execute=False)
    assert S not in resolve_team(without, None, None, execute=True)
    assert resolve_team(with_tests, [Strategy.DIRECT], None, execute=True) == [Strategy.DIRECT]  # a given team rules


async def test_without_execution_it_is_skipped_and_says_why() -> None:
    judge = Judge(ScriptedChatModel(script=script), team="sample_tests,S1", cache=False)
    r = (await judge.ajudge(rle_sample(WRONG))).strategies["sample_tests"]
    assert r.status is Status.SKIPPED and "--execute" in (r.detail or "")



@pytest.mark.docker
async def test_the_run_length_case_the_wrong_candidate_scores_below_the_right(sandbox: DockerSandbox) -> None:
    judge = Judge(ScriptedChatModel(script=script), cache=False, execute=True, sandbox=sandbox)
    right, wrong = await judge.ajudge(rle_sample(RIGHT)), await judge.ajudge(rle_sample(WRONG))
    assert right.team[0] is S and wrong.team[0] is S
    # the generated tests cannot tell them apart; the sample's own tests can
    assert right.strategies["generate_tests"].artifacts["execution"]["pass_ratio"] == 1.0
    assert wrong.strategies["generate_tests"].artifacts["execution"]["pass_ratio"] == 1.0
    assert right.strategies["sample_tests"].score == 100
    assert wrong.strategies["sample_tests"].score == pytest.approx(66.67)
    ex = wrong.strategies["sample_tests"].artifacts["execution"]
    assert (ex["generated"], ex["invalid_on_reference"], ex["valid"]) == (3, 0, 3)
    assert ex["candidate"]["failures"][0]["test"].startswith('assert rle("aba")')
    assert wrong.score is not None and right.score is not None and wrong.score < right.score
    # evidence first (the default): a failing own test keeps the wrong one below the pass mark, named
    assert right.passed is True and wrong.passed is False and right.score - wrong.score >= 20
    assert wrong.grounds == "definitive" and 'rle("aba")' in wrong.against[0]
    assert wrong.score < wrong.pass_mark == 50


@pytest.mark.docker
async def test_a_wrong_own_test_is_dropped_on_the_reference_and_no_reference_means_unchecked(
        sandbox: DockerSandbox) -> None:
    judge = Judge(ScriptedChatModel(script=script), team="sample_tests", cache=False, execute=True, sandbox=sandbox,
                  merge="mean")  # the verdict is the juror's pass ratio
    v = await judge.ajudge(rle_sample(WRONG, tests=OWN_TESTS + 'assert rle("a") == []\n'))
    ex = v.strategies["sample_tests"].artifacts["execution"]
    assert (ex["generated"], ex["invalid_on_reference"], ex["valid"]) == (4, 1, 3) and v.score == pytest.approx(66.67)
    unchecked = await judge.ajudge(rle_sample(WRONG, reference=None))
    r = unchecked.strategies["sample_tests"]
    assert r.score == pytest.approx(66.67) and r.artifacts["execution"]["reference"] is None
    assert "not checked on a reference" in r.artifacts["execution"]["reason"]


@pytest.mark.docker
async def test_a_reference_that_does_not_load_is_our_failure_not_the_candidates(sandbox: DockerSandbox) -> None:
    judge = Judge(ScriptedChatModel(script=script), team="sample_tests", cache=False, execute=True, sandbox=sandbox)
    v = await judge.ajudge(rle_sample(RIGHT, reference="def rle(s)\n    return []\n"))
    r = v.strategies["sample_tests"]
    assert r.status is Status.UNSCORED and r.score is None and v.score is None
    assert "the harness, not the candidate, is at fault" in (r.detail or "")


@pytest.mark.docker
async def test_s5_says_the_reference_not_the_candidate_is_at_fault(sandbox: DockerSandbox) -> None:
    from sejury.execution.evidence import validate_on_reference

    ex, valid = await validate_on_reference(sandbox, "python", "def rle(s)\n    return []\n", OWN_TESTS)
    assert ex.status == "skipped" and not valid.units
    assert "not the candidate" in ex.reason and "SyntaxError" in ex.reason


@pytest.mark.docker
async def test_humaneval_style_check_tests_count_one_assert_each(sandbox: DockerSandbox) -> None:
    humaneval = ("def check(candidate):\n    assert candidate('aab') == [('a', 2), ('b', 1)]\n"
                 "    assert candidate('') == []\n    assert candidate('aba') == [('a', 1), ('b', 1), ('a', 1)]\n\n"
                 "check(rle)\n")
    judge = Judge(ScriptedChatModel(script=script), team="sample_tests", cache=False, execute=True, sandbox=sandbox,
                  merge="mean")  # the verdict is the juror's pass ratio
    v = await judge.ajudge(rle_sample(WRONG, tests=humaneval))
    ex = v.strategies["sample_tests"].artifacts["execution"]
    assert (ex["generated"], ex["valid"], ex["candidate"]["passed"]) == (3, 3, 2) and v.score == pytest.approx(66.67)
