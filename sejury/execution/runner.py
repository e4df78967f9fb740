"""Running a suite of test units against a program in a sandbox, in any registered language.

Every test is a *unit* run on its own (a failing or crashing assertion does not hide the others);
the language's harness reports whether the program loads and each unit's outcome.  Units the
harness never reports (the run timed out, crashed, or ran out of memory) count as failed.  For
compiled languages a unit that does not compile is marked failed and the rest are compiled again
without it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Callable

from pydantic import BaseModel

from sejury.execution import languages
from sejury.execution.differential import read_values
from sejury.execution.languages import Harness, Language, Suite
from sejury.execution.languages.base import load_step
from sejury.execution.sealed import unseal
from sejury.execution.signatures import last_function
from sejury.sandbox.base import ExecResult, ExecStatus, SandboxProvider

# Part of the cache key of S5 with execution: bump it when how programs and tests are built or
# read changes, so cached pass ratios computed the old way are not reused.
RUNNERS_VERSION = "64"


class RunReport(BaseModel):
    """The outcome of one suite on one program."""

    loaded: bool  # the program loads / compiles (executability)
    passed: list[bool]  # one per unit
    reasons: list[str]  # why each unit failed ("" when it passed)
    status: ExecStatus  # of the last sandbox run
    seconds: float
    load_error: str = ""
    stdout_tail: str = ""
    stderr_tail: str = ""
    runs: int = 1  # sandbox runs it took (compile retries)
    values: dict[int, list[str]] = {}  # recorded call values per unit index (differential testing)
    sealed: bool = False  # the tests ran outside the program's process, their results authenticated
    tampering: list[str] = []  # what the sealed harness saw the program do to the run

    @property
    def n_passed(self) -> int:
        return sum(self.passed)


def _language(name: str) -> Language:
    lang = languages.get(name)
    if lang is None:
        raise ValueError(f"no runner for {name!r}; runners: {', '.join(languages.names())}")
    return lang


def defined_names(language: str, program: str) -> set[str]:
    """Top-level names a program defines (functions, classes, variables)."""
    lang = languages.get(language)
    return lang.defined_names(program) if lang else set()


def split_tests(language: str, tests: str, reference: str = "") -> Suite:
    """Units and setup; definitions of names the ``reference`` defines are dropped, and (Python)
    the names it imports are imported before the setup; a slip its declared types repair is
    repaired (``Language.typed_repair``: Go's Python lists)."""
    lang = _language(language)
    if lang.typed_repair is not None:
        with contextlib.suppress(ValueError):  # a text the grammar gives up on (``PARSE_LIMIT_MICROS``): as it is
            tests = lang.typed_repair(tests, reference)
    names = lang.defined_names(reference)
    suite = lang.split(tests, names)
    imports = lang.imports_of(reference) if lang.imports_of and reference else ""
    return Suite(f"{imports}\n{suite.setup}" if imports else suite.setup, suite.units, tested=frozenset(names))


def assemble_program(language: str, problem: str, code: str) -> str:
    """The program to test.  HumanEval-style samples give a signature in the problem and only a
    body as the candidate; then the program is problem + body (as the benchmark's harness does)."""
    lang = languages.get(language)
    return lang.assemble(problem, code) if lang else code


def assemble_reference(language: str, problem: str, reference: str) -> str:
    """The reference's program: ``assemble_program``, in the setting its benchmark edition wrote it
    for where the language says (``Language.reference_setting``: C++'s ``using namespace std;``)."""
    lang = languages.get(language)
    program = assemble_program(language, problem, reference)
    return lang.reference_setting(program) if lang and lang.reference_setting else program


def call_form(language: str, problem: str, reference: str = "") -> str:
    """How a test calls the problem's function (``f(...)``, ``Problem.f(...)``, ``new
    Solution().f(...)``), for S5's prompt; "" when the problem names no function (prose)."""
    lang = languages.get(language)
    found = last_function(problem)
    if lang is None or found is None:
        return ""
    return lang.call(assemble_program(language, problem, reference), found.name)


_RESULT = re.compile(r"^@@T (\d+) (PASS|FAIL) ?(.*)$", re.M)
_COMPILE_ERR = re.compile(r"^(?:\./)?(?P<file>[\w.]+):(?P<line>\d+):", re.M)  # "file:line:" of a diagnostic


# Compiles of one suite at most: each drops the units a diagnostic names.  Compilers report in
# phases (javac: syntax, then types, then flow, such as a missing return; Go stops at 10 errors),
# so a suite with several broken units can need several rounds; three used to lose the rest.
MAX_COMPILE_RUNS = 6


async def run_suite(sandbox: SandboxProvider, language: str, program: str, suite: Suite, *,
                    timeout: float | None = None) -> RunReport:
    """Run every unit of ``suite`` against ``program``; compiled languages retry without the
    units that do not compile (``MAX_COMPILE_RUNS`` compiles in all)."""
    lang = _language(language)
    return await _run(sandbox, suite, timeout or lang.timeout,
                      lambda setup, active: lang.harness(program, dataclasses.replace(suite, setup=setup), active, 5))


async def run_plain(sandbox: SandboxProvider, language: str, program: str, suite: Suite, *,
                    timeout: float | None = None) -> RunReport | None:
    """``run_suite`` on the language's plain harness (the tests in the program's own process), or
    None where the language has none.  A unit fails here if any line says so or none says it passed:
    the program can print result lines of its own, so only its failures are worth anything."""
    lang = _language(language)
    plain = lang.plain_harness
    if plain is None:
        return None
    return await _run(sandbox, suite, timeout or lang.timeout,
                      lambda setup, active: plain(program, dataclasses.replace(suite, setup=setup), active, 5),
                      failures_stick=True)


async def load_program(sandbox: SandboxProvider, language: str, program: str) -> RunReport:
    """Does ``program`` load (compile) at all, with no test: a compiled language's load step alone
    (``load_step``: the test programs are not built), else its harness run with no test."""
    lang = _language(language)
    empty = Suite("", [])
    return await _run(sandbox, empty, lang.timeout,
                      lambda setup, active: load_step(lang.harness(program, empty, active, 5)))


async def _run(sandbox: SandboxProvider, suite: Suite, limit: float,
               harness_of: Callable[[str, dict[int, str]], Harness], *, failures_stick: bool = False) -> RunReport:
    """``run_suite``'s runs: ``harness_of`` the setup and the units still active builds each.
    ``failures_stick``: a unit's first FAIL line is its outcome, whatever lines follow it."""
    active = dict(enumerate(suite.units))
    setup = suite.setup
    reasons = {i: "" for i in active}
    seconds, runs = 0.0, 0
    res: ExecResult | None = None
    tampering: list[str] = []
    out = ""
    for attempt in range(MAX_COMPILE_RUNS):
        harness = harness_of(setup, active)
        res = await sandbox.run(harness.files, harness.command, timeout=limit)
        seconds += res.seconds
        runs += 1
        out = res.stdout
        if harness.seal:
            out, tampering = unseal(res.stdout, harness.seal, killed_by=killed_by(res), plain=harness.plain_markers)
        if "@@LOAD OK" not in out:
            return RunReport(loaded=False, passed=[False] * len(suite.units),
                             reasons=["the program does not load"] * len(suite.units), status=res.status,
                             seconds=seconds, runs=runs, load_error=(out + res.stderr)[-1500:],
                             stdout_tail=out[-500:], stderr_tail=res.stderr[-500:], sealed=bool(harness.seal),
                             tampering=tampering)
        if "@@TESTS NOCOMPILE" in out and harness.test_file:
            lines = [int(m.group("line")) for m in _COMPILE_ERR.finditer(out) if m.group("file") == harness.test_file]
            parts = {part for (a, b), part in harness.setup_parts.items() if any(a <= n <= b for n in lines)}
            if parts and attempt < MAX_COMPILE_RUNS - 1:  # a helper of the setup's that does not compile: without it
                for part in parts:
                    setup = setup.replace(part, "", 1)
                continue
            bad = {i for i, (a, b) in harness.unit_lines.items() if any(a <= n <= b for n in lines)}
            if not bad or len(bad) == len(active) or attempt == MAX_COMPILE_RUNS - 1:
                for i in active:
                    reasons[i] = "does not compile" if i in bad else "tests do not compile"
                active = {}
                break
            for i in bad:
                reasons[i] = "does not compile"
                del active[i]
            continue
        break
    assert res is not None
    # every harness reports units by their index in the suite
    got: dict[int, tuple[bool, str]] = {}
    for m in _RESULT.finditer(out):
        i, ok = int(m.group(1)), m.group(2) == "PASS"
        if not failures_stick or i not in got or got[i][0]:
            got[i] = (ok, m.group(3))
    passed = []
    for i in range(len(suite.units)):
        if i in got:
            ok, why = got[i]
            passed.append(ok)
            reasons[i] = "" if ok else (why or "failed")
        else:
            passed.append(False)
            if not reasons[i]:
                reasons[i] = f"not reported ({res.status.value})"
    return RunReport(loaded=True, passed=passed, reasons=[reasons[i] for i in range(len(suite.units))],
                     status=res.status, seconds=seconds, runs=runs, stdout_tail=out[-500:],
                     stderr_tail=res.stderr[-500:], values=read_values(out), sealed=bool(harness.seal),
                     tampering=tampering)


def killed_by(res: ExecResult) -> int | None:
    """The signal that killed a run's command, unless the sandbox's own limits did (time, memory)."""
    if res.status is ExecStatus.CRASHED and res.exit_code is not None and res.exit_code > 128:
        return res.exit_code - 128
    return None
