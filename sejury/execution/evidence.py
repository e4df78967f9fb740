"""S5's execution evidence: generated tests are checked on the reference, the valid ones run on
the candidate.  Extracting tests and scoring (``strategies/generate_tests.py``) and running them
(``runner.py`` with a language module) stay separate."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from sejury.execution import languages
from sejury.execution.languages import Suite
from sejury.execution.patching import PatchError, apply_patch
from sejury.execution.runner import RunReport, assemble_program, run_suite, split_tests
from sejury.sandbox.base import SandboxProvider

MAX_FAILURES_SHOWN = 5
MAX_OUTCOMES_KEPT = 100  # per-unit outcomes kept in a verdict (the trace viewer's test table)
MAX_UNIT_CHARS = 600


class UnitOutcome(BaseModel):
    """One test unit's outcome in one run."""

    test: str  # its source (cut at MAX_UNIT_CHARS)
    passed: bool
    why: str = ""  # why it failed


class SuiteRun(BaseModel):
    """One suite on one program, for the verdict."""

    loaded: bool
    total: int
    passed: int
    status: str
    seconds: float
    failures: list[dict[str, str]] = Field(default_factory=list)  # test source and why, first few
    load_error: str = ""
    outcomes: list[UnitOutcome] = Field(default_factory=list)  # every unit in order (the first 100)
    stdout_tail: str = ""  # the harness's output, last lines
    stderr_tail: str = ""

    @classmethod
    def of(cls, report: RunReport, units: list[str]) -> SuiteRun:
        fails = [{"test": u, "why": why} for u, ok, why in zip(units, report.passed, report.reasons, strict=True)
                 if not ok][:MAX_FAILURES_SHOWN]
        outcomes = [UnitOutcome(test=u[:MAX_UNIT_CHARS], passed=ok, why=why[:MAX_UNIT_CHARS])
                    for u, ok, why in zip(units, report.passed, report.reasons, strict=True)][:MAX_OUTCOMES_KEPT]
        return cls(loaded=report.loaded, total=len(units), passed=report.n_passed, status=report.status.value,
                   seconds=round(report.seconds, 3), failures=fails, load_error=report.load_error[-600:],
                   outcomes=outcomes, stdout_tail=report.stdout_tail, stderr_tail=report.stderr_tail)


def load_error_line(load_error: str) -> str:
    """The line of a load failure worth quoting: the first that names an error (a compiler's
    ``file:line: error: ...``), else the last; without the harness's ``@@LOAD FAIL`` marker."""
    lines = [x for ln in load_error.splitlines() if (x := ln.replace("@@LOAD FAIL", "").strip())]
    return next((ln for ln in lines if "error" in ln.lower()), lines[-1] if lines else "")


ExecutionStatus = Literal["ran", "skipped", "not_requested"]
NOT_REQUESTED = "LLM prediction only (execution is off)"


class TestExecution(BaseModel):
    """What running S5's tests showed; S5 stores one in every result (``artifacts["execution"]``).

    ``ran``: the tests ran on the candidate; ``skipped``: execution was asked for but could not
    happen (``reason`` says why); ``not_requested``: judged without ``--execute``."""

    status: ExecutionStatus
    reason: str = ""  # why skipped, or a note
    language: str = ""
    generated: int = 0  # test units the model wrote
    invalid_on_reference: int = 0  # discarded: they fail on the reference
    valid: int = 0
    reference: SuiteRun | None = None
    candidate: SuiteRun | None = None
    pass_ratio: float | None = None  # candidate's passes over the valid tests
    executable: bool | None = None  # the candidate loads / compiles
    sample_tests: SuiteRun | None = None  # the sample's own tests on the candidate (ground truth)
    sandbox: str = ""
    valid_tests: str = ""  # setup + valid units, as the LLM sees them when predicting

    @classmethod
    def from_artifact(cls, value: Any) -> TestExecution | None:
        """Read ``artifacts["execution"]`` back, including results cached before it was always a
        record (then execution-off was the string "not run: LLM prediction only ...")."""
        if value is None:
            return None
        if isinstance(value, str):
            return cls(status="not_requested", reason=value.removeprefix("not run: "))
        return cls.model_validate(value)


def programs(task: str, language: str, problem: str, reference: str, candidate: str,
             metadata: dict[str, object]) -> tuple[str, str | None, str]:
    """The reference and candidate programs to run: (reference, candidate or None, why not).

    Code generation: the code itself (joined to the problem's signature, HumanEval-style).
    Program repair: the buggy program (``metadata["buggy_code"]``) with each patch applied; a
    candidate patch that does not apply yields None (it cannot run: executability fails).
    Raises PatchError when there is nothing to run the reference on."""
    if task != "program_repair":
        return assemble_program(language, problem, reference), assemble_program(language, problem, candidate), ""
    buggy = metadata.get("buggy_code")
    if not isinstance(buggy, str) or not buggy.strip():
        raise PatchError("running a patch needs the buggy program, which this sample does not carry "
                         "(metadata.buggy_code)")
    ref = apply_patch(buggy, reference)  # PatchError: the developer patch does not apply
    try:
        return ref, apply_patch(buggy, candidate), ""
    except PatchError as exc:
        return ref, None, f"the candidate patch does not apply: {exc}"


async def validate_on_reference(provider: SandboxProvider, language: str, reference: str,
                                tests: str) -> tuple[TestExecution, Suite]:
    """Run the generated tests on the reference program and keep the ones that pass."""
    lang = languages.get(language)
    if lang is None:
        return TestExecution(status="skipped", reason=f"no test runner for {language!r}"), Suite("", [])
    suite = split_tests(lang.name, tests, reference=reference)
    if not suite.units:
        return TestExecution(status="skipped", reason="no test could be read from the generated tests",
                             language=lang.name), suite
    report = await run_suite(provider, lang.name, reference, suite)
    ex = TestExecution(status="ran", language=lang.name, generated=len(suite.units), sandbox=provider.isolation,
                       reference=SuiteRun.of(report, suite.units))
    if not report.loaded:
        why = ("the reference does not load or compile in the sandbox, so no test can be validated (the "
               f"harness or the sample's reference is at fault, not the candidate): "
               f"{load_error_line(report.load_error)[:200]}")
        return ex.model_copy(update={"status": "skipped", "reason": why}), Suite(suite.setup, [])
    valid = [u for u, ok in zip(suite.units, report.passed, strict=True) if ok]
    ex.invalid_on_reference = len(suite.units) - len(valid)
    ex.valid = len(valid)
    ex.valid_tests = "\n".join(x for x in [suite.setup, *valid] if x.strip())
    if not valid:
        ex.status, ex.reason = "skipped", "every generated test failed on the reference"
    return ex, Suite(suite.setup, valid)


def candidate_timeout(ex: TestExecution) -> float | None:
    """Time limits follow the reference's own runtime (evalplus' rule): 4x, at least 10 s."""
    if ex.reference is None:
        return None
    return max(10.0, 4 * ex.reference.seconds)


async def run_on_candidate(provider: SandboxProvider, ex: TestExecution, valid: Suite, candidate: str | None,
                           why_not: str = "") -> TestExecution:
    if candidate is None:  # nothing to run (a patch that does not apply): it passes nothing
        run = SuiteRun(loaded=False, total=len(valid.units), passed=0, status="not run", seconds=0.0,
                       load_error=why_not)
        return ex.model_copy(update={"candidate": run, "executable": False, "pass_ratio": 0.0})
    report = await run_suite(provider, ex.language, candidate, valid, timeout=candidate_timeout(ex))
    run = SuiteRun.of(report, valid.units)
    return ex.model_copy(update={"candidate": run, "executable": report.loaded,
                                 "pass_ratio": report.n_passed / len(valid.units) if valid.units else None})


async def run_sample_tests(provider: SandboxProvider, language: str, candidate: str, tests: str,
                           reference: str = "") -> SuiteRun | None:
    """The sample's own tests on the candidate program, reported apart as ground truth."""
    lang = languages.get(language)
    if lang is None:
        return None
    suite = split_tests(lang.name, tests, reference=reference)
    if not suite.units:
        return None
    report = await run_suite(provider, lang.name, candidate, suite)
    return SuiteRun.of(report, suite.units)
