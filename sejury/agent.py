"""The judge inside agent loops: what a coding agent needs back from a verdict, as a tool.

An agent asks "is this code right, and why not?" and retries.  ``Feedback`` answers in the
terms it can act on: the score, a pass/fail at a threshold (``passed`` is exactly
``score >= threshold``), the reasons of the jurors that scored lowest, the executed tests that
failed (when the judge ran them), and ``needs_review`` when the verdict is not one to act on
alone (the jurors disagree, too few of them scored, or it passes although executed tests fail).

>>> tool = judge.as_tool(ReviewPolicy(threshold=60))  # a LangChain StructuredTool
>>> text, feedback = tool.invoke({"problem": ..., "candidate": ...}), ...
>>> judge.as_runnable().invoke({"problem": ..., "candidate": ...}).passed
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.tools import StructuredTool
from pydantic import BaseModel, Field

from sejury.execution.evidence import TestExecution
from sejury.merge import stamp
from sejury.review import FailingTest, ReviewPolicy, failing_tests, review_reasons
from sejury.schema import Sample, Status, Task, Verdict

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


class JurorFeedback(BaseModel):
    strategy: str
    score: float
    reasons: list[str]


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


def feedback_of(verdict: Verdict, policy: ReviewPolicy | None = None) -> Feedback:
    """The agent's view of ``verdict`` at ``policy``'s threshold: an evidence-first verdict merged
    at another pass mark is merged again at this one (from its members' results, no new call), so
    the score, ``passed`` and ``needs_review`` always agree with the threshold the agent acts on."""
    p = policy or ReviewPolicy()
    if verdict.merge == "evidence_first" and verdict.pass_mark != p.threshold:
        verdict = stamp(verdict, rule="evidence_first", pass_mark=p.threshold, policy=p)
    scored = [r for name, r in verdict.strategies.items()
              if r.in_team and r.status == Status.SCORED and r.score is not None and name in
              {s.value for s in verdict.team}]
    review = review_reasons(verdict, p)
    score = verdict.score
    lowest = sorted(scored, key=lambda r: (r.score if r.score is not None else 0.0))[:p.lowest]
    return Feedback(
        score=score, passed=None if score is None else score >= p.threshold, threshold=p.threshold,
        needs_review=bool(review), review_reasons=review,
        lowest=[JurorFeedback(strategy=r.strategy.value, score=r.score or 0.0, reasons=r.reasons[:3])
                for r in lowest],
        failing_tests=failing_tests(verdict), tests_run=_tests_run(verdict), judgment_id=verdict.judgment_id)


def _request(value: Any) -> Sample:
    if isinstance(value, Sample):
        return value
    if isinstance(value, JudgeRequest):
        return value.sample()
    if isinstance(value, dict) and {"id", "task"} <= set(value):  # a Sample's fields (kept whole)
        return Sample.model_validate(value)
    return JudgeRequest.model_validate(value).sample()


def default_policy(judge: Judge) -> ReviewPolicy:
    """The default policy, passing at the judge's pass mark: ``pass_mark`` when set, else the team
    file's calibrated one when it has one (``sejury calibrate`` on pass/fail labels writes it), else 50."""
    return ReviewPolicy(threshold=judge.config.effective_pass_mark())


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
