"""S5's execution evidence: generated tests are checked on the reference, the valid ones run on
the candidate.  Extracting tests and scoring (``strategies/generate_tests.py``) and running them
(``runner.py`` with a language module) stay separate."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, Field

from sejury.execution import languages
from sejury.execution.confirm import Plain, confirm_failures
from sejury.execution.differential import HELPER, DifferentialRun, compare, record_calls, renumber, unrecord
from sejury.execution.domain import MAX_SHOWN, Domain
from sejury.execution.languages import Suite
from sejury.execution.random_state import Settled
from sejury.execution.reference import load_error_line, reference_load_failure, run_reference, settle_random
from sejury.execution.runner import RunReport, load_program, run_suite, split_tests
from sejury.sandbox.base import SandboxProvider
from sejury.sandbox.libraries import missing_library, missing_note

MAX_FAILURES_SHOWN, MAX_UNIT_CHARS = 5, 600
MAX_OUTCOMES_KEPT = 100  # per-unit outcomes kept in a verdict (the trace viewer's test table)


class UnitOutcome(BaseModel):
    """One test unit's outcome in one run."""

    test: str  # its source (cut at MAX_UNIT_CHARS)
    passed: bool
    why: str = ""  # why it failed
    plain: str = ""  # a failed unit run again in the program's own process (``confirm.py``): "pass", "fail: <why>"


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
    sealed: bool = False  # the tests ran outside the candidate's process (the sealed harness)
    tampering: list[str] = Field(default_factory=list)  # what the sealed harness saw the program do
    # units the sealed harness failed that pass in the program's own process (``confirm.py``)
    unconfirmed: list[int] = Field(default_factory=list)

    @classmethod
    def of(cls, report: RunReport, units: list[str], plain: Plain | None = None) -> SuiteRun:
        """``plain``: failed units' outcomes in a plain run (failures it confirmed are listed first)."""
        units = [unrecord(u) for u in units]  # as written: without differential testing's recorder
        report = report.model_copy(update={"reasons": [unrecord(r) for r in report.reasons],
                                           "stdout_tail": unrecord(report.stdout_tail)})
        plain = plain or {}
        again = {i: "pass" if ok else f"fail: {why}" for i, (ok, why) in plain.items()}
        fails = [{"test": u, "why": why, **({"plain": again[i]} if i in again else {})}
                 for i, (u, ok, why) in enumerate(zip(units, report.passed, report.reasons, strict=True)) if not ok]
        fails.sort(key=lambda f: f.get("plain") == "pass")
        outcomes = [UnitOutcome(test=u[:MAX_UNIT_CHARS], passed=ok, why=why[:MAX_UNIT_CHARS],
                                plain=again.get(i, "")[:MAX_UNIT_CHARS])
                    for i, (u, ok, why) in enumerate(zip(units, report.passed, report.reasons, strict=True))]
        return cls(loaded=report.loaded, total=len(units), passed=report.n_passed, status=report.status.value,
                   seconds=round(report.seconds, 3), failures=fails[:MAX_FAILURES_SHOWN],
                   load_error=report.load_error[-600:], outcomes=outcomes[:MAX_OUTCOMES_KEPT],
                   stdout_tail=report.stdout_tail, stderr_tail=report.stderr_tail, sealed=report.sealed,
                   tampering=report.tampering, unconfirmed=sorted(i for i, (ok, _) in plain.items() if ok))


ExecutionStatus = Literal["ran", "skipped", "not_requested"]
NOT_REQUESTED = "LLM prediction only (execution is off)"


class SecondRound(BaseModel):
    """One more round of tests for a weak suite (``--mutation-rounds``): the model is shown a
    surviving mutant's change and asked for tests that tell it from the reference; the ones that
    pass on the reference join the suite."""

    shown: str  # the surviving mutant shown to the model (its label)
    generated: int = 0  # test units the model wrote
    valid: int = 0  # new units that passed on the reference (and were not in the suite already)
    kills_shown: bool = False  # a new unit fails on the mutant shown
    killed: int = 0  # survivors of the rounds before that the new units kill
    score_before: float | None = None
    reason: str = ""  # why nothing was added


class MutationRun(BaseModel):
    """How strong the valid tests are: run on one-bug mutants of the reference (``--mutation-check
    N``), a strong suite fails on (kills) most of them.  ``score``: killed / mutants that load;
    after second rounds, of the suite they grew."""

    made: int  # mutants of the reference's own code there were to draw from
    run: int  # drawn, and loaded or compiled
    killed: int
    score: float | None = None
    survivors: list[str] = Field(default_factory=list)  # the first few surviving mutants' labels
    rounds: list[SecondRound] = Field(default_factory=list)


def suite_weight(ex: TestExecution | None, *, first_round: bool = False) -> float:
    """How much a juror resting on these tests counts in the team's mean: the share of the
    reference's mutants they kill when ``--mutation-check`` measured it, else in full.  With
    ``first_round``, of the suite before any second round (S5-diff's calls come from it)."""
    if ex is None or ex.mutation is None or ex.mutation.score is None:
        return 1.0
    m = ex.mutation
    score = m.rounds[0].score_before if first_round and m.rounds else m.score
    return round(score, 4) if score is not None else 1.0


class TestRepair(BaseModel):
    """A round mending S5's suite on the reference: it did not compile or load, and the model, shown
    the errors, wrote it again (``_repair_tests``); or the model wrote the files it read (``_test_files``)."""

    errors: str  # what the model was shown (the files round: the files it was asked for)
    generated: int = 0  # tests in the new suite
    valid: int = 0  # of them, passing on the reference
    saved: bool = False  # the new suite has valid tests (it replaced the broken one)
    files: list[str] = Field(default_factory=list)  # the files round: the files the model wrote


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
    reference_adapted: list[str] = Field(default_factory=list)  # how the reference was fit to its signature
    differential: DifferentialRun | None = None  # the candidate's values against the reference's, same calls
    sandbox: str = ""
    valid_tests: str = ""  # setup + valid units, as the LLM sees them when predicting
    validated: bool = True  # False: no reference to check the tests on; every test ran as written
    mutation: MutationRun | None = None  # the valid tests on mutants of the reference (--mutation-check)
    # what the sealed harness saw the candidate do to the run (forged result lines, a killed harness)
    tampering: list[str] = Field(default_factory=list)
    # "stdio": the tests are inputs on stdin and the outputs the reference prints (``io_evidence.py``)
    form: Literal["calls", "stdio"] = "calls"
    several_answers: bool = False  # stdio: the problem accepts several outputs, so a differing one may be right
    repair: TestRepair | None = None  # the round that asked for the suite again, when it did not compile
    files: TestRepair | None = None  # the round that asked for the files its tests read and never wrote
    out_of_domain: int = 0  # tests left out: calls outside the domain the problem's examples show (``domain.py``)
    outside_domain: list[str] = Field(default_factory=list)
    # tests given an empty input the problem neither shows nor states (``Domain.edges``): text -> call
    edge_tests: dict[str, str] = Field(default_factory=dict)

    def against(self) -> str | None:
        """Definitive evidence against the candidate in this run: it tampered with the harness, or it
        does not load or compile where the reference does (a patch that does not apply included)."""
        if self.tampering:
            return "tampering suspected: " + "; ".join(self.tampering)
        ref_loads = self.reference is None or self.reference.loaded
        if self.candidate is None or self.candidate.loaded or missing_library(self.candidate.load_error) is not None:
            return None  # it loads, or it was not run, or the image lacks a library (not the candidate's fault)
        line = load_error_line(self.candidate.load_error)[:200]
        if ref_loads and self.status == "ran":
            return "the candidate does not load or compile" + (" (the reference does)" if self.reference else "") + \
                (f": {line}" if line else "")
        if not ref_loads and self.own_error(self.candidate.load_error):
            return f"the candidate does not load or compile, for an error in its own text: {line}"
        return None

    def own_error(self, load_error: str) -> bool:
        """Is a load failure the program's own text (a syntax or compile error in its file, as its
        language's ``program_error`` reads it), not the sandbox or the harness?  (A missing library
        is ruled out before, in ``against``.)"""
        lang = languages.get(self.language) if self.language else None
        return bool(lang and lang.program_error and lang.program_error.search(load_error))

    @classmethod
    def from_artifact(cls, value: Any) -> TestExecution | None:
        """Read ``artifacts["execution"]`` back (an old cache's execution-off was a string)."""
        if value is None:
            return None
        if isinstance(value, str):
            return cls(status="not_requested", reason=value.removeprefix("not run: "))
        return cls.model_validate(value)


@dataclass
class Probe:
    """Differential testing's inputs: S5's tests with the calls of ``function`` recorded, and what
    the reference returned for them (by unit index)."""

    function: str
    suite: Suite  # every unit, calls wrapped
    values: dict[int, list[str]]  # the reference's values
    valid: list[int] = field(default_factory=list)  # units that passed on the reference
    typed_raises: bool = False  # the problem states what its function raises (``differential.states_raises``)
    random: Settled | None = None  # how its values depend on the random state (``random_state.py``)


async def validate_on_reference(provider: SandboxProvider, language: str, reference: str,
                                tests: str) -> tuple[TestExecution, Suite]:
    """Run the generated tests on the reference program and keep the ones that pass."""
    ex, valid, _ = await check_on_reference(provider, language, reference, tests)
    return ex, valid


async def check_on_reference(provider: SandboxProvider, language: str, reference: str, tests: str,
                             record: str | None = None, *, typed_raises: bool = False,
                             domain: Domain | None = None) -> tuple[TestExecution, Suite, Probe | None]:
    """Run the tests on the reference and keep the ones that pass; with ``record`` (the problem's
    function) the calls of it are recorded too, for differential testing (the ``Probe``; ``typed_raises``:
    the problem states what it raises); a test calling it outside ``domain`` is left out first."""
    lang = languages.get(language)
    if lang is None:
        return TestExecution(status="skipped", reason=f"no test runner for {language!r}"), Suite("", []), None
    suite = split_tests(lang.name, tests, reference=reference)
    if not suite.units:
        return TestExecution(status="skipped", reason="no test could be read from the generated tests",
                             language=lang.name), suite, None
    written, (inside, outside) = len(suite.units), domain.split(suite.units) if domain else (suite.units, [])
    suite = replace(suite, units=inside)
    if domain and not inside:
        return TestExecution(status="skipped", language=lang.name, generated=written, out_of_domain=written,
                             outside_domain=outside[:MAX_SHOWN], reason=domain.all_outside(outside)), suite, None
    if record:
        suite = replace(suite, setup=record_calls(suite.setup, HELPER, record, helpers=True),
                                    units=[record_calls(u, i, record) for i, u in enumerate(suite.units)])
    report, adapted = await run_reference(provider, lang.name, reference, suite)
    ex = TestExecution(status="ran", language=lang.name, generated=written, sandbox=provider.isolation,
                       reference=SuiteRun.of(report, suite.units), reference_adapted=adapted,
                       out_of_domain=len(outside), outside_domain=outside[:MAX_SHOWN],
                       edge_tests=domain.edges(inside) if domain else {})
    if adapted:
        ex.reason = ("the reference did not compile as given and was adapted to the signature: "
                     + "; ".join(adapted))[:600]
    if not report.loaded:
        why = reference_load_failure(report.load_error, report.status)
        return ex.model_copy(update={"status": "skipped", "reason": why}), replace(suite, units=[]), None
    kept = [i for i, ok in enumerate(report.passed) if ok]
    valid = [suite.units[i] for i in kept]
    ex.invalid_on_reference = len(suite.units) - len(valid)
    ex.valid = len(valid)
    ex.valid_tests = "\n".join(unrecord(x) for x in [suite.setup, *valid] if x.strip())
    if not valid:
        ex.status, ex.reason = "skipped", "every generated test failed on the reference"
    if not (record and report.values):
        return ex, replace(suite, units=valid), None
    settled, _ = await settle_random(provider, lang.name, reference, suite, report.values)
    return ex, replace(suite, units=valid), Probe(record, suite, settled.values, kept, typed_raises, settled)


def _library_gap(ex: TestExecution, report: RunReport) -> TestExecution | None:
    """The record of a candidate that could not load for a library the image lacks: not run."""
    if (module := None if report.loaded else missing_library(report.load_error)) is None:
        return None
    return ex.model_copy(update={"status": "skipped", "reason": missing_note(module), "executable": None,
                                 "pass_ratio": None, "differential": None})


def worth_running(ex: TestExecution, probe: Probe | None) -> bool:
    """Is there anything to run on the candidate: valid tests, or calls whose values the reference
    gave (differential testing uses those even when every test's expected value was wrong)?"""
    return ex.status == "ran" or (probe is not None and bool(probe.values))


def candidate_timeout(ex: TestExecution) -> float | None:
    """Time limits follow the reference's own runtime (evalplus' rule): 4x, at least 10 s."""
    if ex.reference is None:
        return None
    return max(10.0, 4 * ex.reference.seconds)


def reference_failed(ex: TestExecution) -> bool:
    """Did S5's validation stop because the reference does not load (not for a missing library)?"""
    return ex.status == "skipped" and ex.reference is not None and not ex.reference.loaded \
        and missing_library(ex.reference.load_error) is None


async def load_alone(provider: SandboxProvider, ex: TestExecution, candidate: str) -> TestExecution:
    """The candidate loaded (compiled) with no test, where the reference does not load: a candidate
    whose own text does not compile is wrong whatever the reference (``TestExecution.against``:
    definitive); one that loads is recorded as loading, and nothing more is claimed.  Only the
    candidate is compiled (``runner.load_program``), not the harness's test programs."""
    report = await load_program(provider, ex.language, candidate)
    return ex.model_copy(update={"candidate": SuiteRun.of(report, []), "executable": report.loaded})


async def run_on_candidate(provider: SandboxProvider, ex: TestExecution, valid: Suite, candidate: str | None,
                           why_not: str = "", probe: Probe | None = None, *, confirm: bool = False) -> TestExecution:
    """``valid`` on the candidate (with ``probe``: S5-diff's values too); ``confirm``: its failures run
    again in a plain run (``confirm_failures``: a sample's own tests with no reference to check them)."""
    if candidate is None:  # nothing to run (a patch that does not apply): it passes nothing
        run = SuiteRun(loaded=False, total=len(valid.units), passed=0, status="not run", seconds=0.0,
                       load_error=why_not)
        diff = None if probe is None else compare(probe.function, probe.suite.units, probe.values, {},
                                                  set(probe.valid), {}, probe.typed_raises)
        return ex.model_copy(update={"candidate": run, "executable": False, "pass_ratio": 0.0, "differential": diff})
    if probe is not None:
        return await _run_with_probe(provider, ex, valid, candidate, probe)
    report = await run_suite(provider, ex.language, candidate, valid, timeout=candidate_timeout(ex))
    plain = await confirm_failures(provider, ex.language, candidate, valid, report) if confirm else None
    run = SuiteRun.of(report, valid.units, plain)
    if (gap := _library_gap(ex, report)) is not None:
        return gap.model_copy(update={"candidate": run})
    return ex.model_copy(update={"candidate": run, "executable": report.loaded, "tampering": report.tampering,
                                 "pass_ratio": report.n_passed / len(valid.units) if valid.units else None})


async def _run_with_probe(provider: SandboxProvider, ex: TestExecution, valid: Suite, candidate: str,
                          probe: Probe) -> TestExecution:
    """One run of the valid tests and of every test that gave the reference a value: the pass
    ratio over the valid ones (S5-exec), the agreement of values over the others too (S5-diff)."""
    order = sorted(set(probe.valid) | set(probe.values))  # numbered by position in this run, then mapped back
    suite = replace(probe.suite, units=[renumber(probe.suite.units[i], i, n) for n, i in enumerate(order)])
    report = await run_suite(provider, ex.language, candidate, suite, timeout=candidate_timeout(ex))
    values = {order[n]: v for n, v in report.values.items() if 0 <= n < len(order)}
    if (gap := _library_gap(ex, report)) is not None:
        return gap.model_copy(update={"candidate": SuiteRun.of(report, suite.units)})
    at = {i: n for n, i in enumerate(order)}
    view = report.model_copy(update={"passed": [report.passed[at[i]] for i in probe.valid],
                                     "reasons": [report.reasons[at[i]] for i in probe.valid]})
    reasons = {i: report.reasons[at[i]] for i in order}
    diff = compare(probe.function, probe.suite.units, probe.values, values, set(probe.valid), reasons,
                   probe.typed_raises, passed={i: report.passed[at[i]] for i in order}, random=probe.random)
    return ex.model_copy(update={"candidate": SuiteRun.of(view, valid.units), "executable": report.loaded,
                                 "tampering": report.tampering,
                                 "pass_ratio": view.n_passed / len(valid.units) if valid.units else None,
                                 "differential": diff})


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
