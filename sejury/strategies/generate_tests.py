"""S5 generate tests, then assess: the first call writes tests from the problem and the reference
(never from the candidate); the second predicts whether the candidate passes each.

With execution on (``--execute``), the tests also really run in the sandbox: first on the
reference, which discards the wrong ones, then on the candidate; the LLM predicts on the valid
tests only, and the score combines both (``combine``).  Without it the score is the prediction.
Every result carries a ``TestExecution`` record in ``artifacts["execution"]``.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Awaitable, Callable
from typing import Any

from sejury import prompts
from sejury.context import JudgeContext
from sejury.execution import languages
from sejury.execution.differential import recorded_function, states_raises
from sejury.execution.domain import DOMAIN_VERSION, Domain
from sejury.execution.evidence import (
    NOT_REQUESTED,
    Probe,
    TestExecution,
    check_on_reference,
    load_alone,
    reference_failed,
    run_on_candidate,
    run_sample_tests,
    worth_running,
)
from sejury.execution.languages import Suite
from sejury.execution.mutation import mutation_check
from sejury.execution.patching import PatchError
from sejury.execution.programs import programs
from sejury.execution.runner import RUNNERS_VERSION, assemble_program, call_form, split_tests
from sejury.execution.stdio import IoCase
from sejury.sandbox.libraries import sample_profile
from sejury.schema import Sample, StrategyResult, Task, TraceEvent
from sejury.scoring import ParsedReply
from sejury.strategies import _io, _repair_tests, _test_files
from sejury.strategies._s5_lines import detail_lines
from sejury.strategies._sharpen import Programs, sharpen
from sejury.strategies._sharpen import version as sharpen_version
from sejury.strategies._tests_text import read_tests
from sejury.strategies.base import Kind, Outcome, Recorder, StrategySpec, ask_score, ask_text, register


def applies(sample: Sample) -> str | None:
    """Tests need code and a reference to derive them from."""
    if sample.task is Task.CODE_SUMMARIZATION:
        return "tests do not apply to code summaries"
    return None if sample.reference else "no reference to derive tests from (S5-nl writes them from the problem alone)"


Run = Callable[[Sample, JudgeContext, Recorder, StrategyResult | None], Awaitable[Outcome]]


def make_run(prompt: str, *, sees_problem: bool = True, sees_reference: bool = True) -> Run:
    """S5's two steps from the templates of ``prompt`` (CodeScore's input formats: the problem and
    the reference, the problem only, the reference only).  The tests are validated on the reference
    whenever the sample has one, whatever the model saw; without one they run unvalidated."""

    async def run_format(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
        shown = {"problem": sample.problem if sees_problem else "",
                 "reference": sample.reference if sees_reference else ""}
        return await _run(prompt, shown, sample, ctx, rec)

    return run_format


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    return await _run("generate_tests", {"problem": sample.problem, "reference": sample.reference}, sample, ctx, rec)


async def _run(prompt: str, shown: dict[str, str | None], sample: Sample, ctx: JudgeContext, rec: Recorder,
               ) -> Outcome:
    problem, reference = shown["problem"] or "", shown["reference"]
    if _io.is_program(sample):
        return await _run_program(prompt, problem, reference or "", sample, ctx, rec)
    written = await ask_text(ctx, rec, "write_tests", prompts.render(
        prompt, sample.task, "write", language=sample.language, problem=problem,
        reference=reference, test_style=prompts.test_style(sample.language, sample_profile(sample)),
        call=call_form(sample.language, sample.problem or sample.reference or "", sample.reference or "")))
    tests, n_tests = read_tests(written.text, sample.language, written.finish_reason == "length")
    artifacts: dict[str, Any] = {"tests": tests, "n_tests": n_tests}
    if n_tests == 0:
        artifacts["execution"] = _not_run(ctx, "no tests could be read from the reply")
        return Outcome(None, detail="no tests could be read from the reply", artifacts=artifacts)

    execution: TestExecution | None = None
    valid = probe = None
    progs: tuple[str, str | None, str] = ("", None, "")
    if ctx.execute:
        execution, valid, progs, probe = await (_validate(sample, ctx, rec, tests) if sample.reference
                                                else _unvalidated(sample, ctx, tests))
        if execution is not None and (names := _test_files.missing_files(execution)):
            files = await _test_files.ask_files(sample, ctx, rec, tests, names)
            files_tests = _test_files.with_files(tests, files, sample.language)
            again = (await _validate(sample, ctx, rec, files_tests)) if files else None
            record = _test_files.outcome(names, files, again[0] if again else None)
            if again is not None and record.saved:
                (execution, valid, progs, probe), tests = again, files_tests
                artifacts["tests"] = tests
            execution = execution.model_copy(update={"files": record})
        if execution is not None and (errors := _repair_tests.suite_errors(execution)) is not None:
            new, n_new = await _repair_tests.rewrite(sample, ctx, rec, tests, errors)
            again = (await _validate(sample, ctx, rec, new)) if n_new else None
            repair = _repair_tests.outcome(errors, again[0] if again else None, n_new)
            if again is not None and repair.saved:
                (execution, valid, progs, probe), tests = again, new
                artifacts |= {"tests": tests, "n_tests": n_new}
            execution = execution.model_copy(update={"repair": repair})
    predict_on = execution.valid_tests if execution and execution.status == "ran" else tests
    user = prompts.render(prompt, sample.task, "predict", language=sample.language, problem=problem,
                          reference=reference, candidate=sample.candidate, tests=predict_on)

    async def predict() -> tuple[ParsedReply | None, str]:
        return await ask_score(ctx, rec, "predict", user)

    async def execute() -> TestExecution | None:
        reference, candidate, why_not = progs
        if execution is not None and ctx.sandbox is not None and candidate is not None and reference_failed(execution):
            alone = await load_alone(ctx.sandbox, execution, candidate)  # does the candidate's own text compile?
            rec.sandbox_event("load_candidate", alone.candidate)
            return alone
        if execution is None or valid is None or ctx.sandbox is None or not worth_running(execution, probe):
            return execution
        done = await run_on_candidate(ctx.sandbox, execution, valid, candidate, why_not, probe)
        rec.sandbox_event("run_candidate", done.candidate)
        if sample.tests and candidate is not None:
            own = await run_sample_tests(ctx.sandbox, sample.language, candidate, sample.tests, reference)
            done = done.model_copy(update={"sample_tests": own})
            rec.sandbox_event("run_sample_tests", own)
        if ctx.mutation_check and done.status == "ran" and done.validated and valid.units and sample.reference \
                and not done.reference_adapted:  # an adapted reference is not the program the tests passed on
            buggy = sample.metadata.get("buggy_code") if sample.task is Task.PROGRAM_REPAIR else None
            mutation, survivors = await mutation_check(
                ctx.sandbox, done.language, reference, sample.reference, valid, ctx.mutation_check,
                seed=int(sample.content_hash()[:8], 16), buggy=buggy if isinstance(buggy, str) else None)
            done = done.model_copy(update={"mutation": mutation})
            if mutation is not None:
                rec.events.append(TraceEvent(kind="sandbox_run", strategy=rec.strategy.value, step="mutation_check",
                                             detail=mutation.model_dump()))
                if ctx.mutation_rounds:
                    done = await sharpen(sample, ctx, rec, done, valid, Programs(reference, candidate), survivors)
        return done

    (parsed, error), execution = await asyncio.gather(predict(), execute())
    return _outcome(ctx, parsed, error, execution, artifacts)


def _outcome(ctx: JudgeContext, parsed: ParsedReply | None, error: str, execution: TestExecution | None,
             artifacts: dict[str, Any]) -> Outcome:
    """S5's result from its prediction and its execution record (either path: calls or a program)."""
    if parsed is not None:
        parsed = score_from_verdicts(parsed, artifacts)
    if execution is None:
        artifacts["execution"] = _not_run(ctx, "")
        return Outcome(parsed, detail=error or None, artifacts=artifacts)
    artifacts["execution"] = execution.model_dump(exclude={"valid_tests"})
    out = combine(parsed, execution, artifacts, ctx.execution_weight, error)
    out.against = execution.against() if execution.validated else None
    return out


async def _run_program(prompt: str, problem: str, reference: str, sample: Sample, ctx: JudgeContext,
                       rec: Recorder) -> Outcome:
    """S5 on a program reading stdin: the model writes inputs only (``_partials/io_inputs.md``); with
    ``--execute`` the reference's outputs are the expected ones and the candidate's are compared
    (``strategies/_io.py``), as S5-exec, S5-diff and S5-runs read them."""
    written = await ask_text(ctx, rec, "write_tests", prompts.render_partial(
        "io_inputs", language=sample.language, problem=problem, reference=reference))
    inputs = _io.read_inputs(written.text)
    artifacts: dict[str, Any] = {"tests": _io.SEPARATOR.join(x.rstrip("\n") for x in inputs), "n_tests": len(inputs)}
    if not inputs:
        artifacts["execution"] = _not_run(ctx, "no input could be read from the reply")
        return Outcome(None, detail="no input could be read from the reply", artifacts=artifacts)
    execution: TestExecution | None = None
    if ctx.execute and ctx.sandbox is None:
        execution = TestExecution(status="skipped", reason="no sandbox configured")
    elif ctx.execute and not sample.reference:
        execution = TestExecution(status="skipped", reason="a program's inputs need the reference's outputs")
    elif ctx.execute:
        execution = (await _io.run_cases(sample, ctx, rec, [IoCase(x) for x in inputs])).model_copy(
            update={"generated": len(inputs)})
    tests = execution.valid_tests if execution and execution.status == "ran" else "\n\n".join(
        f"Input:\n{x}" for x in inputs)
    parsed, error = await ask_score(ctx, rec, "predict", prompts.render(
        prompt, sample.task, "predict", language=sample.language, problem=problem, reference=reference,
        candidate=sample.candidate, tests=tests))
    return _outcome(ctx, parsed, error, execution, artifacts)  # a program's inputs always ran on a reference


async def _validate(sample: Sample, ctx: JudgeContext, rec: Recorder, tests: str,
                    ) -> tuple[TestExecution, Suite | None, tuple[str, str | None, str], Probe | None]:
    none: tuple[str, str | None, str] = ("", None, "")
    if ctx.sandbox is None:
        return TestExecution(status="skipped", reason="no sandbox configured"), None, none, None
    try:
        progs = programs(sample.task.value, sample.language, sample.problem, sample.reference or "",
                         sample.candidate, sample.metadata)
    except PatchError as exc:
        return TestExecution(status="skipped", reason=f"{exc}; LLM prediction only"), None, none, None
    # the calls of the problem's function are recorded too: differential testing (S5-diff); a test
    # calling it outside the domain the problem's examples show is left out (``domain.py``)
    function = recorded_function(sample.problem)
    execution, valid, probe = await check_on_reference(ctx.sandbox, sample.language, progs[0], tests,
                                                       record=function, typed_raises=states_raises(sample.problem),
                                                       domain=Domain.of(sample.problem, function, sample.language))
    rec.sandbox_event("validate_on_reference", execution.reference)
    return execution, valid, progs, probe


UNVALIDATED = ("unvalidated: the sample has no reference to check the tests on, so a test the model got wrong "
               "counts against the candidate")


async def _unvalidated(sample: Sample, ctx: JudgeContext, tests: str,
                       ) -> tuple[TestExecution, Suite | None, tuple[str, str | None, str], Probe | None]:
    """Without a reference every test the model wrote is run on the candidate as it is, and the
    record says so (``validated`` False)."""
    none: tuple[str, str | None, str] = ("", None, "")
    lang = languages.get(sample.language)
    if ctx.sandbox is None:
        return TestExecution(status="skipped", reason="no sandbox configured"), None, none, None
    if lang is None:
        return TestExecution(status="skipped", reason=f"no test runner for {sample.language!r}"), None, none, None
    suite = split_tests(lang.name, tests)
    if not suite.units:
        return (TestExecution(status="skipped", reason="no test could be read from the generated tests",
                              language=lang.name), None, none, None)
    ex = TestExecution(status="ran", language=lang.name, generated=len(suite.units), valid=len(suite.units),
                       validated=False, reason=UNVALIDATED, sandbox=ctx.sandbox.isolation,
                       valid_tests="\n".join(x for x in [suite.setup, *suite.units] if x.strip()))
    return ex, suite, ("", assemble_program(lang.name, sample.problem, sample.candidate), ""), None


def combine(parsed: ParsedReply | None, ex: TestExecution, artifacts: dict[str, Any], weight: float,
            error: str) -> Outcome:
    """S5's score from its two parts, each kept visible in the artifacts:
    - the tests ran: ``weight * 100 * pass_ratio + (1 - weight) * prediction`` (a candidate that
      does not load passes nothing: ratio 0); without a readable prediction, ``100 * pass_ratio``;
    - they could not run (no runner, invalid on the reference, a patch): the prediction alone."""
    prediction = parsed.score if parsed is not None else None
    artifacts["prediction_score"] = prediction
    if ex.status != "ran" or ex.pass_ratio is None:
        artifacts["score_rule"] = f"prediction only ({ex.reason or 'no execution result'})"
        return Outcome(parsed, detail=error or None, artifacts=artifacts)
    executed = 100 * ex.pass_ratio
    artifacts["execution_score"] = round(executed, 2)
    reasons = parsed.reasons if parsed is not None else []
    if prediction is None:
        artifacts["score_rule"] = "execution only (the prediction was unreadable)"
        return Outcome(ParsedReply(score=round(executed, 2), reasons=reasons), artifacts=artifacts)
    artifacts["score_rule"] = f"{weight:g} x execution + {1 - weight:g} x prediction"
    score = weight * executed + (1 - weight) * prediction
    return Outcome(ParsedReply(score=round(score, 2), reasons=reasons), artifacts=artifacts)


_PASS = re.compile(r"\bPASS(?:ES|ED)?\b", re.IGNORECASE)
_FAIL = re.compile(r"\bFAIL(?:S|ED)?\b", re.IGNORECASE)


def score_from_verdicts(parsed: ParsedReply, artifacts: dict[str, object]) -> ParsedReply:
    """The prompt defines S5's score as the share of tests predicted to pass.  Small models get the
    arithmetic wrong ("PASS, FAIL, PASS, PASS, PASS / Score: 100"), so when every check line carries
    one verdict the score is their tally; the stated score stays in the artifacts and the trace."""
    verdicts = []
    for line in parsed.reasons:
        has_pass, has_fail = bool(_PASS.search(line)), bool(_FAIL.search(line))
        if has_pass == has_fail:
            return parsed  # a line without exactly one verdict: keep the stated score
        verdicts.append(has_pass)
    if not verdicts:
        return parsed
    artifacts["stated_score"] = parsed.score
    artifacts["predicted_pass"] = sum(verdicts)
    artifacts["predicted_total"] = len(verdicts)
    return ParsedReply(score=round(100 * sum(verdicts) / len(verdicts), 2), reasons=parsed.reasons)


def _not_run(ctx: JudgeContext, reason: str) -> dict[str, Any]:
    if not ctx.execute:
        return TestExecution(status="not_requested", reason=NOT_REQUESTED).model_dump(exclude={"valid_tests"})
    return TestExecution(status="skipped", reason=reason).model_dump(exclude={"valid_tests"})


def feed_digest(result: StrategyResult) -> str:
    """S5-exec and S5-diff read the execution record: the pass ratio and the agreement of values,
    or why there are none; their cache keys must change when any does (an unscored S5-exec once
    kept a stale reason from its cache)."""
    value: Any = result.artifacts.get("execution")
    tests = result.artifacts.get("tests")
    if isinstance(tests, str) and tests:  # S5-fuzz mutates the calls in the tests themselves
        return f"tests:{hashlib.sha256(tests.encode()).hexdigest()[:12]}|{_execution_digest(value)}"
    return _execution_digest(value)


def _execution_digest(value: Any) -> str:
    """The whole record as the jurors read it (its timings aside): a digest of chosen fields kept a
    juror's stale result when a field it reads was added or changed (S5-exec read the differential's
    ``valid_without_calls`` from a cached run that predates it)."""
    try:
        ex = TestExecution.from_artifact(value)
    except ValueError:
        return str(value)
    if ex is None:
        return ""
    timings = {"seconds"}
    record = ex.model_dump_json(exclude={"reference": timings, "candidate": timings, "sample_tests": timings})
    return hashlib.sha256(record.encode()).hexdigest()[:16]


def cache_extra(ctx: JudgeContext) -> str:
    if not ctx.execute:
        return ""
    return f"|exec:{ctx.execution_weight:g}|runners:{RUNNERS_VERSION}|domain:{DOMAIN_VERSION}" + \
        (f"|mutants:{ctx.mutation_check}" if ctx.mutation_check else "") + \
        (f"|rounds:{ctx.mutation_rounds}:{sharpen_version()}" if ctx.mutation_check and ctx.mutation_rounds
         else "")


# its partials: the test styles, a program's inputs, the repair round (S5-nl and S5-code share them)
PARTIALS = (*prompts.partials_named("test_style_"), "_partials/io_inputs.md", "_partials/repair_tests.md",
            "_partials/test_files.md")

SPEC = register(StrategySpec(
    value="generate_tests", paper_name="S5", kind=Kind.LLM, run=run, rank=50, steps=("write", "predict"),
    tasks=(Task.CODE_GENERATION, Task.PROGRAM_REPAIR),
    partials=PARTIALS,
    llm_calls=2, applies=applies, default_member=True, feed_digest=feed_digest, cache_extra=cache_extra,
    detail_lines=detail_lines, summary="write tests from the reference, predict (and with --execute run) them"))
