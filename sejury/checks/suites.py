"""Can a test suite tell right from wrong?  The suite must pass on the reference and fail on
programs known to be wrong: dummies of the function (it raises; it returns a zero value), the
reference's one-bug mutants (``mutants.py``), and for a patch, the buggy program itself.

The mutation score is killed / mutants that load (a mutant that does not compile says nothing
about the tests).  Some mutants are equivalent to the reference (``i < n`` vs ``i <= n`` where
``n`` is never reached), so 1.0 is not always reachable: the threshold is a judgment, stated.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from sejury.errors import InputError
from sejury.execution import languages
from sejury.execution.languages import Suite
from sejury.execution.languages._parse_guard import TooCostly
from sejury.execution.mutants import changed_lines, draw, dummies, mutants, region_of
from sejury.execution.patching import PatchError
from sejury.execution.programs import programs
from sejury.execution.reference import load_error_line, run_reference_program
from sejury.execution.runner import run_suite, split_tests
from sejury.execution.signatures import last_function
from sejury.io import text_lines
from sejury.sandbox.base import SandboxProvider
from sejury.schema import Sample, Task

MIN_MUTATION_SCORE = 0.75
MUTANTS = 10


class ProgramRun(BaseModel):
    """One known program under the suite."""

    kind: str  # "reference", "dummy", "mutant", "buggy program"
    label: str
    loaded: bool
    passed: int
    total: int
    failed: list[str] = Field(default_factory=list)  # the first tests it failed, and why

    @property
    def caught(self) -> bool:
        """A wrong program the suite rejects: it loads and fails at least one test."""
        return self.loaded and self.passed < self.total


class SuiteCheck(BaseModel):
    """The verdict on one sample's tests."""

    sample_id: str
    language: str
    status: str  # "tells right from wrong", "weak", "not checked"
    problems: list[str] = Field(default_factory=list)  # why weak, or why not checked
    tests: int = 0  # units read from the sample's tests (checked: those kept)
    dropped: int = 0  # with ``only_valid``: units that failed on the reference, left out
    reference: ProgramRun | None = None
    reference_adapted: list[str] = Field(default_factory=list)
    wrong: list[ProgramRun] = Field(default_factory=list)  # dummies, buggy program, mutants
    mutants_made: int = 0  # before the draw

    def of_kind(self, kind: str) -> list[ProgramRun]:
        return [r for r in self.wrong if r.kind == kind]

    @property
    def mutation_score(self) -> float | None:
        live = [m for m in self.of_kind("mutant") if m.loaded]
        return sum(m.caught for m in live) / len(live) if live else None

    @property
    def survivors(self) -> list[ProgramRun]:
        return [r for r in self.wrong if r.loaded and not r.caught]


def _run(kind: str, label: str, report_passed: Sequence[bool], loaded: bool, reasons: Sequence[str],
         units: Sequence[str]) -> ProgramRun:
    failed = [f"{u.strip()[:120]} -> {why[:120]}" for u, ok, why in zip(units, report_passed, reasons, strict=True)
              if not ok][:2]
    return ProgramRun(kind=kind, label=label, loaded=loaded, passed=sum(report_passed), total=len(units),
                      failed=failed if loaded else [])


async def check_sample(provider: SandboxProvider, sample: Sample, *, n_mutants: int = MUTANTS, seed: int = 0,
                       min_score: float = MIN_MUTATION_SCORE, only_valid: bool = False) -> SuiteCheck:
    """Run the sample's tests on its reference, its dummies, its mutants (and a patch's buggy
    program).  ``only_valid``: the tests that fail on the reference are left out first, as S5
    leaves them out (for checking generated suites), rather than reported."""
    def skip(why: str, **kw: object) -> SuiteCheck:
        return SuiteCheck(sample_id=sample.id, language=sample.language, status="not checked", problems=[why],
                          **kw)

    lang = languages.get(sample.language)
    if sample.task is Task.CODE_SUMMARIZATION:
        return skip("a code summary has no tests to check")
    if not sample.tests:
        return skip("the sample carries no tests")
    if lang is None:
        return skip(f"no test runner for {sample.language!r}")
    if not sample.reference:
        return skip("the sample has no reference to check the tests on")
    try:
        assembled, _, _ = programs(sample.task.value, lang.name, sample.problem, sample.reference, "",
                                   sample.metadata)
    except PatchError as exc:
        return skip(str(exc))
    suite = split_tests(lang.name, sample.tests, reference=assembled)
    if not suite.units:
        return skip("no test could be read from the sample's tests")
    report, adapted, program = await run_reference_program(provider, lang.name, assembled, suite)
    reference = _run("reference", "the reference", report.passed, report.loaded, report.reasons, suite.units)
    base = {"tests": len(suite.units), "reference": reference, "reference_adapted": adapted}
    if not report.loaded:
        return skip("the reference does not load in the sandbox: "
                    f"{load_error_line(report.load_error)[:200]}", **base)
    dropped = 0
    if only_valid:
        kept = [u for u, ok in zip(suite.units, report.passed, strict=True) if ok]
        dropped = len(suite.units) - len(kept)
        if not kept:
            return skip("every test fails on the reference", **base)
        suite = dataclasses.replace(suite, units=kept)
        base["tests"] = len(kept)
    try:
        wrong_programs, made = _wrong_programs(sample, lang.name, assembled, program, n_mutants, seed)
    except TooCostly as exc:
        return skip(f"the reference's code could not be read for mutants: {exc}", **base)
    runs = await asyncio.gather(*(_judge_program(provider, lang.name, suite, kind, label, code)
                                  for kind, label, code in wrong_programs))
    check = SuiteCheck(sample_id=sample.id, language=lang.name, status="tells right from wrong", wrong=list(runs),
                       mutants_made=made, dropped=dropped, **base)
    check.problems = _problems(check, min_score)
    if check.problems:
        check.status = "weak"
    return check


def _wrong_programs(sample: Sample, language: str, assembled: str, program: str, n_mutants: int,
                    seed: int) -> tuple[list[tuple[str, str, str]], int]:
    """(kind, label, program) of every known-wrong program, and the number of mutants made."""
    if sample.task is Task.PROGRAM_REPAIR:  # the buggy program, and mutants of the lines the patch wrote
        buggy = str(sample.metadata.get("buggy_code"))
        spans = changed_lines(buggy, program)
        every = mutants(language, program, spans) if spans else []
        drawn = draw(every, n_mutants, seed)
        return [("buggy program", "the buggy program (no patch)", buggy),
                *(("mutant", m.label, m.program) for m in drawn)], len(every)
    found = last_function(sample.problem) or last_function(sample.reference or "")
    out: list[tuple[str, str, str]] = []
    if found is not None:
        out += [("dummy", d.label, d.program) for d in dummies(language, program, found.name)]
    region = _region(assembled, program, sample.reference or "")
    where = None if region is None else [region]
    every = mutants(language, program, where)
    drawn = draw(every, n_mutants, seed)
    out += [("mutant", m.label, m.program) for m in drawn]
    return out, len(every)


def _region(assembled: str, program: str, reference: str) -> tuple[int, int] | None:
    """The reference's part of the program that ran (after the problem's text, when the
    reference was adapted)."""
    found = region_of(program, reference)
    if found is not None:
        return found
    start = region_of(assembled, reference)
    if start is not None and program.startswith(assembled[: start[0]]):
        return start[0], len(program)
    return None


async def _judge_program(provider: SandboxProvider, language: str, suite: Suite, kind: str, label: str,
                         code: str) -> ProgramRun:
    report = await run_suite(provider, language, code, suite)
    return _run(kind, label, report.passed, report.loaded, report.reasons, suite.units)


def _problems(check: SuiteCheck, min_score: float) -> list[str]:
    out = []
    ref = check.reference
    if ref is not None and ref.passed < ref.total and not check.dropped:
        out.append(f"the reference fails {ref.total - ref.passed} of {ref.total} tests "
                   "(the tests or the reference are wrong)")
    for run in check.wrong:
        if run.kind != "mutant" and run.loaded and not run.caught:
            out.append(f"{'a dummy that ' + run.label if run.kind == 'dummy' else run.label} passes every test")
    score = check.mutation_score
    if score is not None and score < min_score:
        live = [m for m in check.of_kind("mutant") if m.loaded]
        survived = sum(not m.caught for m in live)
        out.append(f"mutation score {score:.2f} < {min_score:.2f}: {survived} of {len(live)} mutants pass every test")
    return out


async def check_samples(provider: SandboxProvider, samples: Sequence[Sample], *, n_mutants: int = MUTANTS,
                        seed: int = 0, min_score: float = MIN_MUTATION_SCORE, concurrency: int = 2,
                        only_valid: bool = False,
                        progress: Callable[[SuiteCheck], None] | None = None) -> list[SuiteCheck]:
    """``check_sample`` over many samples, ``concurrency`` at a time, in input order."""
    gate = asyncio.Semaphore(concurrency)

    async def one(s: Sample) -> SuiteCheck:
        async with gate:
            done = await check_sample(provider, s, n_mutants=n_mutants, seed=seed, min_score=min_score,
                                      only_valid=only_valid)
        if progress is not None:
            progress(done)
        return done

    return list(await asyncio.gather(*(one(s) for s in samples)))


def s5_suites(run: Path) -> dict[str, str]:
    """sample id -> the tests S5 wrote for it, from a run file's verdicts."""
    found: dict[str, str] = {}
    for n, raw in enumerate(text_lines(run), 1):
        if not raw.strip():
            continue
        try:
            verdict = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON ({exc.msg})", file=str(run), line=n) from None
        s5 = ((verdict.get("strategies") or {}).get("generate_tests") or {}) if isinstance(verdict, dict) else {}
        tests = (s5.get("artifacts") or {}).get("tests")
        if isinstance(tests, str) and tests.strip() and "sample_id" in verdict:
            found[str(verdict["sample_id"])] = tests
    if not found:
        raise InputError("no verdict holds S5's tests (judge with S5, S5-exec or S5-diff in the team)", file=str(run))
    return found
