"""The sample's own tests, as a juror (0-100, no LLM call): ``100 * passed / valid``.

A user who hands over tests (the sample's ``tests`` field) expects them to count.  With
``--execute`` they run on the reference first, where one that fails is wrong and is discarded
(as S5's are), then on the candidate; without a reference they run on the candidate unchecked,
and the verdict says so.  A reference that does not load in the sandbox means the harness, not
the candidate, is at fault: the juror is then unscored with that reason, never 0.  It joins the
default team whenever the sample carries tests and execution is on, and is listed first.
"""

from __future__ import annotations

from sejury.context import JudgeContext
from sejury.execution import languages
from sejury.execution.evidence import SuiteRun, TestExecution, run_on_candidate, validate_on_reference
from sejury.execution.patching import PatchError
from sejury.execution.programs import programs
from sejury.execution.reference import load_error_line
from sejury.execution.runner import RUNNERS_VERSION, split_tests
from sejury.execution.stdio import statement_examples
from sejury.sandbox.libraries import missing_library, missing_note
from sejury.schema import Sample, StrategyResult, Task
from sejury.scoring import ParsedReply
from sejury.strategies import _io
from sejury.strategies.base import Kind, Outcome, Recorder, StrategySpec, register, when_executing


def applies(sample: Sample) -> str | None:
    if sample.task is Task.CODE_SUMMARIZATION:
        return "tests do not apply to code summaries"
    if sample.tests and sample.tests.strip():
        return None
    if _io.is_program(sample) and statement_examples(sample.problem):
        return None  # a program's tests: the problem's own Input/Output examples
    return "the sample carries no tests"


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    if ctx.sandbox is None:
        return Outcome(None, detail="no sandbox configured")
    if _io.is_program(sample):
        return await _run_program(sample, ctx, rec)
    lang = languages.get(sample.language)
    if lang is None:
        return Outcome(None, detail=f"no test runner for {sample.language!r}")
    tests = sample.tests or ""
    try:
        reference, candidate, why_not = programs(sample.task.value, lang.name, sample.problem,
                                                 sample.reference or "", sample.candidate, sample.metadata)
    except PatchError as exc:
        return Outcome(None, detail=str(exc))
    if sample.reference:
        ex, valid = await validate_on_reference(ctx.sandbox, lang.name, reference, tests)
        rec.sandbox_event("validate_on_reference", ex.reference)
        if ex.status != "ran":
            if ex.reference is None:
                why = "no test could be read from the sample's tests"
            elif (module := missing_library(ex.reference.load_error)) is not None:
                why = missing_note(module)
            elif not ex.reference.loaded:
                why = ("the reference does not load in the sandbox: the harness, not the candidate, is at fault "
                       f"({load_error_line(ex.reference.load_error)[:200]})")
            else:
                why = "every one of the sample's tests fails on the reference: the tests or the reference are wrong"
            return Outcome(None, detail=why, artifacts={"execution": _dump(ex)})
    else:
        valid = split_tests(lang.name, tests)
        if not valid.units:
            return Outcome(None, detail="no test could be read from the sample's tests")
        ex = TestExecution(status="ran", language=lang.name, generated=len(valid.units), valid=len(valid.units),
                           sandbox=ctx.sandbox.isolation, reason="not checked on a reference (the sample has none)")
    # no reference checked the tests: a failure may be the sealed harness's own, so the candidate's
    # failures run again as the user's own runner has them (``evidence.confirm_failures``)
    done = await run_on_candidate(ctx.sandbox, ex, valid, candidate, why_not, confirm=not sample.reference)
    rec.sandbox_event("run_candidate", done.candidate)
    if done.pass_ratio is None:  # the candidate needs a library the image lacks
        return Outcome(None, detail=done.reason, artifacts={"execution": _dump(done)})
    out = Outcome(ParsedReply(score=round(100 * done.pass_ratio, 2)), artifacts={"execution": _dump(done)},
                  against=against(done))
    if done.candidate is not None and done.candidate.unconfirmed:
        out.detail = unconfirmed_note(done.candidate, lang.name)
    return out


def unconfirmed_note(run: SuiteRun, language: str) -> str:
    """Why failures of the sample's tests are not definitive: the sealed harness failed them, a
    plain run of the candidate passed them (which it could forge)."""
    first = next((f for f in run.failures if f.get("plain") == "pass"), None)
    shown = f", first: {languages.test_name(language, first['test'])[:120]} ({first['why'][:120]})" if first else ""
    return (f"{len(run.unconfirmed)} of the sample's {run.total} tests fail only in the sealed harness{shown}; "
            "they pass with the tests in the candidate's own process, where the candidate could forge a pass: "
            "the harness may be at fault, so they are not definitive and still count as failed")


async def _run_program(sample: Sample, ctx: JudgeContext, rec: Recorder) -> Outcome:
    """A program reading stdin: the sample's tests, else the problem's examples, as (input, output)."""
    try:
        cases, source = _io.own_cases(sample)
    except ValueError as exc:
        return Outcome(None, detail=str(exc))
    if not cases:
        return Outcome(None, detail=f"no input/output pair could be read from {source}")
    ex = (await _io.run_cases(sample, ctx, rec, cases)).model_copy(update={"generated": len(cases)})
    artifacts = {"execution": _dump(ex), "source": source}
    if ex.status != "ran" or ex.pass_ratio is None:
        return Outcome(None, detail=f"{source} could not be checked: {ex.reason}", artifacts=artifacts)
    tests = "the problem's {} examples" if source == "the problem's examples" else "the sample's {} tests"
    out = Outcome(ParsedReply(score=round(100 * ex.pass_ratio, 2)), artifacts=artifacts, against=against(ex, tests))
    if ex.several_answers and out.against and not out.against.startswith("tampering"):
        out.detail = f"not counted as definitive: the problem accepts several answers ({out.against})"
        out.against = None
    return out


def against(ex: TestExecution, tests: str = "the sample's {} tests") -> str | None:
    """Definitive evidence: the candidate fails one of the sample's own tests (those that hold on the
    reference, when there is one), or does not load, or tampered with the run."""
    if (why := ex.against()) is not None:
        return why
    run = ex.candidate
    if run is None or run.passed >= run.total:
        return None
    failing = run.total - run.passed - len(run.unconfirmed)  # a failure a plain run did not confirm is not definitive
    if failing <= 0:
        return None
    first = run.failures[0] if run.failures else {"test": "", "why": ""}  # the confirmed ones come first
    plain = first.get("plain", "").removeprefix("fail: ")
    said = first.get("why", "") + (f"; with the tests in its own process: {plain[:120]}"
                                   if plain and plain != first.get("why") else "")
    why = f" ({said[:240]})" if said else ""
    name = languages.test_name(ex.language, first["test"])
    more = f"; {len(run.unconfirmed)} more fail only in the sealed harness" if run.unconfirmed else ""
    return f"fails {failing} of {tests.format(run.total)}, first: {name[:200]}{why}{more}"



def _dump(ex: TestExecution) -> dict[str, object]:
    return ex.model_dump(exclude={"valid_tests", "sample_tests"})


def detail_lines(result: StrategyResult) -> list[str]:
    ex = TestExecution.from_artifact(result.artifacts.get("execution"))
    if ex is None or ex.status != "ran" or ex.candidate is None:
        return []
    checked = (f"{ex.invalid_on_reference} of {ex.generated} failed on the reference and were dropped"
               if ex.reference is not None else ex.reason)
    loads = "" if ex.executable else " (the candidate does not load)"
    source = result.artifacts.get("source") or "the sample's tests"
    again = ex.candidate.unconfirmed
    plain = f" ({len(again)} of its failures pass with the tests in its own process)" if again else ""
    return [f"candidate passed {ex.candidate.passed}/{ex.valid} of {source}{loads}{plain}; {checked}"]


SPEC = register(StrategySpec(
    value="sample_tests", paper_name="Sample-tests", aliases=("tests", "own_tests"), kind=Kind.EVIDENCE, run=run,
    rank=5, version=lambda: f"sample-tests-4|runners:{RUNNERS_VERSION}", applies=applies, needs_execute=True,
    joins_default=when_executing(applies), detail_lines=detail_lines,
    summary="the pass ratio of the sample's own tests (checked on the reference) on the candidate"))
