"""The judge inside agent loops: what a coding agent needs back from a verdict, as a tool.

An agent asks "is this code right, and why not?" and retries.  ``Feedback`` answers in the
terms it can act on: the score, a pass/fail at a threshold (``passed`` is exactly
``score >= threshold``), the reasons of the jurors that scored lowest, the executed tests that
failed (when the judge ran them), and ``needs_review`` when the verdict is not one to act on
alone (the jurors disagree, too few of them scored, or it passes although executed tests fail).

>>> tool = judge.as_tool(threshold=60)            # a LangChain StructuredTool
>>> text, feedback = tool.invoke({"problem": ..., "candidate": ...}), ...
>>> judge.as_runnable().invoke({"problem": ..., "candidate": ...}).passed
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.tools import StructuredTool
from pydantic import BaseModel, Field

from sejury.checks.mutation import WEAK_SUITE
from sejury.execution.evidence import TestExecution
from sejury.schema import Sample, Status, Task, TeamFile, Verdict

if TYPE_CHECKING:
    from sejury.api import Judge

__all__ = ["FailingTest", "Feedback", "JudgeRequest", "JurorFeedback", "ReviewPolicy", "TestsRun", "feedback_of"]


class JudgeRequest(BaseModel):
    """What an agent passes: the problem and its code; a reference and tests when it has them."""

    problem: str = Field(description="the task the code must solve (the prompt, issue or docstring)")
    candidate: str = Field(description="the generated code (or patch) to judge")
    reference: str | None = Field(None, description="a known-correct solution, if any")
    tests: str | None = Field(None, description="tests the code must pass, if any (run with execution on)")
    language: str = Field("python", description="python, javascript, java, cpp or go")
    task: Task = Field(Task.CODE_GENERATION, description="code_generation, program_repair or code_summarization")
    id: str = Field("agent", description="a name for this attempt, kept in the trace")

    def sample(self) -> Sample:
        return Sample(id=self.id, task=self.task, language=self.language, problem=self.problem,
                      candidate=self.candidate, reference=self.reference, tests=self.tests)


class ReviewPolicy(BaseModel):
    """When a verdict passes, and when it should not be acted on without a human."""

    threshold: float = Field(50.0, ge=0, le=100)  # passed = score >= threshold
    max_spread: float = Field(50.0, ge=0, le=100)  # jurors' max - min above this: needs review
    min_scored: int = Field(2, ge=1)  # fewer scored jurors than this: needs review
    lowest: int = Field(2, ge=1)  # reasons of this many lowest-scoring jurors
    # with --mutation-check: the executed tests kill fewer mutants of the reference than this: needs review
    min_mutation_score: float = Field(WEAK_SUITE, ge=0, le=1)


class JurorFeedback(BaseModel):
    strategy: str
    score: float
    reasons: list[str]


class FailingTest(BaseModel):
    juror: str  # the juror that ran it: sample_tests (the caller's tests), generate_tests / test_pass, test_diff
    test: str
    why: str


class TestsRun(BaseModel):
    juror: str
    suite: str  # "the sample's tests" or "generated tests (validated on the reference)"
    passed: int
    total: int


class Feedback(BaseModel):
    score: float | None  # 0-100, None when no juror scored
    passed: bool | None  # score >= threshold; None when unscored
    threshold: float
    needs_review: bool
    review_reasons: list[str] = Field(default_factory=list)
    lowest: list[JurorFeedback] = Field(default_factory=list)  # lowest-scoring jurors first
    failing_tests: list[FailingTest] = Field(default_factory=list)
    tests_run: list[TestsRun] = Field(default_factory=list)  # what really ran, when execution was on
    judgment_id: str | None = None  # `sejury trace ID` shows the full trace

    def text(self) -> str:
        """The feedback as an agent reads it in a tool message."""
        if self.score is None:
            head = "UNSCORED: no juror produced a score; do not treat this as a pass or a fail."
        else:
            head = f"{'PASS' if self.passed else 'FAIL'}: score {self.score:g}/100 (threshold {self.threshold:g})."
        lines = [head]
        if self.needs_review:
            lines.append("Needs review: " + "; ".join(self.review_reasons))
        for run in self.tests_run:
            lines.append(f"Tests run ({run.juror}): {run.passed}/{run.total} of {run.suite} passed.")
        for t in self.failing_tests:
            lines.append(f"Failing test ({t.juror}): {t.test.strip()}" + (f" -> {t.why.strip()}" if t.why else ""))
        for j in self.lowest:
            for r in j.reasons:
                lines.append(f"{j.strategy} ({j.score:g}): {r}")
        if self.judgment_id:
            lines.append(f"(trace: sejury trace {self.judgment_id})")
        return "\n".join(lines)


def _tests_run(verdict: Verdict) -> list[TestsRun]:
    """What ran: the sample's tests (the ``sample_tests`` juror, or S5's run of them "apart") and
    S5's generated tests that held on the reference.  S5-exec repeats S5's run: not counted twice."""
    out: list[TestsRun] = []
    for name, result in verdict.strategies.items():
        ex = TestExecution.from_artifact(result.artifacts.get("execution"))
        if ex is None or ex.status != "ran" or name == "test_pass":
            continue
        if ex.candidate is not None:
            suite = "the sample's tests" if name == "sample_tests" else "the generated tests valid on the reference"
            out.append(TestsRun(juror=name, suite=suite, passed=ex.candidate.passed, total=ex.candidate.total))
        if ex.sample_tests is not None and "sample_tests" not in verdict.strategies:
            out.append(TestsRun(juror=name, suite="the sample's tests", passed=ex.sample_tests.passed,
                                total=ex.sample_tests.total))
    return out


def _failing_tests(verdict: Verdict, limit: int = 5) -> list[FailingTest]:
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
            out.extend(FailingTest(juror=name, test=f.get("test", ""), why=f.get("why", "")) for f in suite.failures)
        if ex.differential is not None and "test_diff" in verdict.strategies:  # S5-diff: the values that differ
            for m in ex.differential.mismatches:
                theirs, mine = m.shown()
                out.append(FailingTest(juror="test_diff", test=m.test,
                                       why=f"returned {mine} where the reference returns {theirs}"))
    unique = {(t.test, t.why): t for t in reversed(out)}  # S5 and S5-exec report the same run
    return list(reversed(unique.values()))[:limit]


def feedback_of(verdict: Verdict, policy: ReviewPolicy | None = None) -> Feedback:
    p = policy or ReviewPolicy()
    scored = [r for name, r in verdict.strategies.items()
              if r.in_team and r.status == Status.SCORED and r.score is not None and name in
              {s.value for s in verdict.team}]
    review: list[str] = []
    need = min(p.min_scored, len(verdict.team))  # a one-member team needs its one score
    if len(scored) < need:
        review.append(f"only {len(scored)} of {len(verdict.team)} jurors scored (need {need})")
    if verdict.spread is not None and verdict.spread.max - verdict.spread.min > p.max_spread:
        review.append(f"the jurors disagree: scores from {verdict.spread.min:g} to {verdict.spread.max:g}")
    failing = _failing_tests(verdict)
    score = verdict.score
    if failing and score is not None and score >= p.threshold:
        review.append(f"it passes at {p.threshold:g} although {len(failing)} executed test(s) fail")
    weak = _weak_suite(verdict, p.min_mutation_score)
    if weak:
        review.append(weak)
    lowest = sorted(scored, key=lambda r: (r.score if r.score is not None else 0.0))[:p.lowest]
    return Feedback(
        score=score, passed=None if score is None else score >= p.threshold, threshold=p.threshold,
        needs_review=bool(review), review_reasons=review,
        lowest=[JurorFeedback(strategy=r.strategy.value, score=r.score or 0.0, reasons=r.reasons[:3])
                for r in lowest],
        failing_tests=failing, tests_run=_tests_run(verdict), judgment_id=verdict.judgment_id)


def _weak_suite(verdict: Verdict, minimum: float) -> str:
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


def _request(value: Any) -> Sample:
    if isinstance(value, Sample):
        return value
    if isinstance(value, JudgeRequest):
        return value.sample()
    if isinstance(value, dict) and {"id", "task"} <= set(value):  # a Sample's fields (kept whole)
        return Sample.model_validate(value)
    return JudgeRequest.model_validate(value).sample()


def default_policy(judge: Judge) -> ReviewPolicy:
    """The default policy, passing at the team file's calibrated pass mark when it has one
    (``sejury calibrate`` on pass/fail labels writes it), else at 50."""
    team = judge.config.team
    if isinstance(team, TeamFile) and team.threshold is not None:
        return ReviewPolicy(threshold=team.threshold)
    return ReviewPolicy()


def as_runnable(judge: Judge, policy: ReviewPolicy | None = None) -> Runnable[Any, Feedback]:
    """A Runnable: a ``JudgeRequest`` (or a ``Sample``, or a dict of either) in, ``Feedback`` out."""
    policy = policy or default_policy(judge)

    async def run(value: Any) -> Feedback:
        return feedback_of(await judge.ajudge(_request(value)), policy)

    def run_blocking(value: Any) -> Feedback:
        return feedback_of(judge.judge(_request(value)), policy)

    return RunnableLambda(run_blocking, afunc=run, name="sejury_feedback")


def as_tool(judge: Judge, policy: ReviewPolicy | None = None, *, name: str = "judge_code",
            description: str | None = None) -> StructuredTool:
    """A LangChain tool: the agent reads ``Feedback.text()``; the ``Feedback`` is the artifact."""
    p = policy or default_policy(judge)

    async def arun(**kwargs: Any) -> tuple[str, dict[str, Any]]:
        fb = feedback_of(await judge.ajudge(JudgeRequest(**kwargs).sample()), p)
        return fb.text(), fb.model_dump()

    def run(**kwargs: Any) -> tuple[str, dict[str, Any]]:
        fb = feedback_of(judge.judge(JudgeRequest(**kwargs).sample()), p)
        return fb.text(), fb.model_dump()

    return StructuredTool.from_function(
        func=run, coroutine=arun, name=name, args_schema=JudgeRequest, response_format="content_and_artifact",
        description=description or (
            "Judge whether code is correct for a problem. Returns PASS/FAIL with a 0-100 score, "
            f"the failing tests and the reasons of the most critical jurors (pass at score >= {p.threshold:g})."))
