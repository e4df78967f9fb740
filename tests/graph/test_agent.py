"""The judge in agent loops: Feedback (pass/fail, needs-review, reasons, failing tests), the tool,
the runnable; judgment ids; JSON input to the graph.  Wiring over the scripted fake model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from langchain_core.messages import ToolMessage

from sejury import Judge, Sample
from sejury.agent import Feedback, JudgeRequest, ReviewPolicy, feedback_of
from sejury.api import run_sync
from sejury.errors import InputError
from sejury.execution.evidence import SuiteRun
from sejury.execution.evidence import TestExecution as Execution
from sejury.schema import Spread, Status, Strategy, StrategyResult, Task, TeamFile, Verdict
from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel

MakeJudge = Callable[..., tuple[Judge, ScriptedChatModel]]


def verdict(scores: dict[str, float | None], **extra: Any) -> Verdict:
    results = {n: StrategyResult(strategy=Strategy(n), status=Status.SCORED if s is not None else Status.UNSCORED,
                                 score=s, reasons=[f"{n} says {s}"]) for n, s in scores.items()}
    scored = [s for s in scores.values() if s is not None]
    mean = sum(scored) / len(scored) if scored else None
    return Verdict(sample_id="x", task=Task.CODE_GENERATION, status="scored" if scored else "unscored",
                   score=mean, team=[Strategy(n) for n in scores], strategies=results,
                   spread=Spread.of(scored), judgment_id="j123", **extra)


@pytest.mark.parametrize("threshold", [0.0, 49.99, 50.0, 50.01, 100.0])
def test_passed_is_exactly_the_score_at_the_threshold(threshold: float) -> None:
    fb = feedback_of(verdict({"direct": 40, "equivalence": 60}), ReviewPolicy(threshold=threshold))
    assert fb.score == 50
    assert fb.passed is (threshold <= 50)


def test_an_unscored_verdict_neither_passes_nor_fails_and_needs_review() -> None:
    fb = feedback_of(verdict({"direct": None, "equivalence": None}))
    assert fb.score is None and fb.passed is None
    assert fb.needs_review and "only 0 of 2 jurors scored" in fb.review_reasons[0]
    assert fb.text().startswith("UNSCORED")


def test_disagreeing_jurors_need_review_and_the_lowest_reasons_come_first() -> None:
    fb = feedback_of(verdict({"direct": 90, "equivalence": 10, "rethink": 70}), ReviewPolicy(max_spread=50, lowest=2))
    assert fb.needs_review and "from 10 to 90" in fb.review_reasons[0]
    assert [j.strategy for j in fb.lowest] == ["equivalence", "rethink"]
    assert fb.lowest[0].reasons == ["equivalence says 10"]
    agreeing = feedback_of(verdict({"direct": 90, "equivalence": 80}))
    assert not agreeing.needs_review and agreeing.review_reasons == []


def test_failing_executed_tests_are_reported_once() -> None:
    run = SuiteRun(loaded=True, total=3, passed=2, status="completed", seconds=0.1,
                   failures=[{"test": "assert rle('aba') == [('a', 1), ('b', 1), ('a', 1)]", "why": "AssertionError"}])
    v = verdict({"sample_tests": 66.67, "generate_tests": 70, "test_pass": 66.67})
    v.strategies["sample_tests"].artifacts["execution"] = Execution(status="ran", candidate=run).model_dump()
    # S5 also ran the sample's tests apart, and S5-exec repeats S5's record: one report of each failure
    s5 = Execution(status="ran", sample_tests=run).model_dump()
    v.strategies["generate_tests"].artifacts["execution"] = v.strategies["test_pass"].artifacts["execution"] = s5
    fb = feedback_of(v)
    assert len(fb.failing_tests) == 1
    assert fb.failing_tests[0].juror == "sample_tests" and "rle('aba')" in fb.failing_tests[0].test
    assert "Failing test (sample_tests): assert rle('aba')" in fb.text()
    assert "sejury trace j123" in fb.text()
    assert [(r.juror, r.passed, r.total) for r in fb.tests_run] == [("sample_tests", 2, 3)]
    assert "Tests run (sample_tests): 2/3 of the sample's tests passed." in fb.text()


def test_a_failing_test_is_named_as_its_runner_names_it_not_as_the_harness_runs_it() -> None:
    """A unittest class's test and a Jest test reach the agent by name (``TestCases.test_x`` and its
    body; ``rle > empty``), without the harness's call that runs them (``sejury_case``, ``sejuryTest``)."""
    py = ("class TestCases(unittest.TestCase):\n    def test_x(self):\n        self.assertEqual(f(1), 2)\n"
          "sejury_case(TestCases, 'test_x')")
    js = ("sejuryReset();\ndescribe('rle', () => {\n  it('empty', () => { expect(rle('')).toEqual([]); });\n});\n"
          "sejuryTest(0);")
    for language, unit, want in (("python", py, "TestCases.test_x:\nself.assertEqual(f(1), 2)"),
                                 ("javascript", js, "rle > empty")):
        run = SuiteRun(loaded=True, total=1, passed=0, status="completed", seconds=0.1,
                       failures=[{"test": unit, "why": "AssertionError"}])
        v = verdict({"sample_tests": 0})
        v.strategies["sample_tests"].artifacts["execution"] = Execution(status="ran", language=language,
                                                                        candidate=run).model_dump()
        fb = feedback_of(v)
        assert [t.test for t in fb.failing_tests] == [want]
        assert "sejury_case" not in fb.text() and "sejuryTest" not in fb.text()


def test_values_that_differ_from_the_reference_are_fed_back_with_s5_diff() -> None:
    from sejury.execution.differential import DifferentialRun, Mismatch

    diff = DifferentialRun(function="abs_sum", inputs=3, agreed=2, from_invalid=1, ratio=2 / 3,
                           mismatches=[Mismatch(test="assert abs_sum(-1, 2) == 1", reference="3|1", candidate="1|1")])
    run = SuiteRun(loaded=True, total=2, passed=2, status="completed", seconds=0.1)
    record = Execution(status="ran", candidate=run, differential=diff).model_dump()
    v = verdict({"generate_tests": 90, "test_diff": 66.67})
    v.strategies["generate_tests"].artifacts["execution"] = record
    fb = feedback_of(v)
    assert [(t.juror, t.test, t.why) for t in fb.failing_tests] == [
        ("test_diff", "assert abs_sum(-1, 2) == 1", "returned 1 where the reference returns 3")]
    # without S5-diff in the verdict, the same record adds nothing
    v2 = verdict({"generate_tests": 90})
    v2.strategies["generate_tests"].artifacts["execution"] = record
    assert feedback_of(v2).failing_tests == []


def test_the_tool_returns_text_for_the_agent_and_feedback_as_artifact(make_judge: MakeJudge) -> None:
    judge, _ = make_judge(team="direct,equivalence")
    tool = judge.as_tool(ReviewPolicy(threshold=60))
    assert tool.name == "judge_code" and "candidate" in tool.args and "problem" in tool.args
    call = {"name": tool.name, "id": "c1", "type": "tool_call",
            "args": {"problem": "add a and b", "candidate": "def add(a, b): return a + b",
                     "reference": "def add(a, b): return a + b"}}
    msg = run_sync(tool.ainvoke(call))
    assert isinstance(msg, ToolMessage)
    fb = Feedback.model_validate(msg.artifact)
    assert fb.score is not None and fb.passed is (fb.score >= 60)
    assert msg.content == fb.text()
    assert fb.judgment_id is not None and fb.judgment_id in str(msg.content)
    blocking = tool.invoke(call)  # the sync path gives the same answer
    assert Feedback.model_validate(blocking.artifact).score == fb.score


def test_the_runnable_takes_a_request_or_a_sample(make_judge: MakeJudge, codegen: Sample) -> None:
    judge, _ = make_judge(team="direct")
    r = judge.as_runnable(ReviewPolicy(threshold=90))
    from_request = r.invoke({"problem": "add", "candidate": "def add(a, b): return a + b"})
    from_sample = run_sync(r.ainvoke(codegen))
    expected = float(GOOD_REPLIES["direct"].rsplit("Score:", 1)[1])  # 80
    for fb in (from_request, from_sample):
        assert isinstance(fb, Feedback)
        assert fb.score == expected and fb.passed is (fb.score is not None and fb.score >= 90)
    with pytest.raises(Exception, match="candidate"):
        r.invoke({"problem": "no candidate"})


def test_a_team_file_with_a_calibrated_pass_mark_sets_the_default_policy(make_judge: MakeJudge,
                                                                           codegen: Sample) -> None:
    # direct scores 80: it passes at the default 50, fails at the team file's calibrated 85
    plain, _ = make_judge(team="direct")
    assert plain.as_runnable().invoke(codegen).passed is True
    judge, _ = make_judge(team=TeamFile(strategies=[Strategy.DIRECT], threshold=85))
    for fb in (judge.as_runnable().invoke(codegen),
               Feedback.model_validate(judge.as_tool().invoke(
                   {"name": "judge_code", "id": "c1", "type": "tool_call",
                    "args": {"problem": codegen.problem, "candidate": codegen.candidate}}).artifact)):
        assert (fb.score, fb.threshold, fb.passed) == (80, 85, False)
    # a policy given explicitly wins over the team file's mark
    assert judge.as_runnable(ReviewPolicy(threshold=70)).invoke(codegen).passed is True


def test_every_judgment_gets_an_id_and_its_trace_is_stored(make_judge: MakeJudge, codegen: Sample) -> None:
    judge, _ = make_judge(team="direct,rethink")
    a, b = judge.judge(codegen), judge.judge(codegen)
    assert a.judgment_id and b.judgment_id and a.judgment_id != b.judgment_id
    assert judge.traces is not None
    stored = judge.traces.get(a.judgment_id)
    assert stored.sample == codegen
    assert stored.verdict.score == a.score and stored.verdict.strategies.keys() == a.strategies.keys()
    calls = [e for e in stored.verdict.trace() if e.kind == "llm_call"]
    assert calls and all(e.messages and e.reply is not None for e in calls)
    assert stored.config["team"] == ["direct", "rethink"]
    # one stored trace per judgment: LangGraph may run the deferred merge early, while the follower
    # (rethink) still runs; that early run stores nothing
    assert len(judge.traces) == 2


def test_traces_off_stores_nothing_but_still_names_the_judgment(make_judge: MakeJudge, codegen: Sample) -> None:
    judge, _ = make_judge(team="direct", traces=False)
    assert judge.traces is None
    assert judge.judge(codegen).judgment_id


def test_the_graph_takes_plain_json_as_the_langgraph_server_sends_it(make_judge: MakeJudge) -> None:
    judge, _ = make_judge()
    out = run_sync(judge.graph.ainvoke({"sample": {"id": "j", "task": "code_generation", "problem": "p",
                                                    "candidate": "def f(): pass"}, "team": ["S1"]}))
    v = out["verdict"]
    assert isinstance(v, Verdict) and [t.value for t in v.team] == ["direct"] and v.score is not None
    with pytest.raises(InputError) as err:
        run_sync(judge.graph.ainvoke({"sample": {"id": "j", "task": "code_generation", "problem": "p"}}))
    assert err.value.field == "sample.candidate"


def test_request_defaults_make_a_code_generation_sample() -> None:
    s = JudgeRequest(problem="p", candidate="c", language="js").sample()
    assert s.task is Task.CODE_GENERATION and s.language == "javascript" and s.id == "agent"


def test_a_pass_with_failing_executed_tests_needs_review() -> None:
    run = SuiteRun(loaded=True, total=5, passed=3, status="completed", seconds=0.1,
                   failures=[{"test": "assert f([5, 5, 4]) == 4", "why": "AssertionError"}])
    v = verdict({"sample_tests": 60.0, "direct": 100.0})
    v.strategies["sample_tests"].artifacts["execution"] = Execution(status="ran", candidate=run).model_dump()
    fb = feedback_of(v, ReviewPolicy(threshold=60))
    assert fb.passed is True  # consistent with the score (80 >= 60) ...
    assert fb.needs_review and any("executed test(s) fail" in r for r in fb.review_reasons)  # ... but flagged
