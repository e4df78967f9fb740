"""Running a suite on the sample's reference, once per sandbox.

A judgment runs suites on the reference before it runs them on the candidate: the sample's own
tests, S5's, Ex-fuzz's inputs.  Judging another candidate of the same sample (an agent's loop, a
batch of candidates, the tamper tests' hacks side by side) runs the very same suites on the very
same reference again: in a compiled language three of a judgment's seven sandbox runs.  So a
sandbox provider keeps the reference's finished runs (``KEPT`` of them, least recently used out),
keyed by the language's harness, the reference, the suite and the time limit, and a run asked for
while the same one is under way waits for it instead of starting another.  Kept: a run that loaded
and ended normally; a reference that does not load, a run that timed out, crashed or ran out of
memory runs again next time (the machine may have been busy).  Candidates' runs are never shared.
"""

from __future__ import annotations

import asyncio
import dataclasses
import weakref
from collections import OrderedDict
from typing import Any

from sejury.execution import languages
from sejury.execution.languages import Suite
from sejury.execution.random_state import ANOTHER_STATE, Settled, may_draw, settle
from sejury.execution.runner import RunReport, run_suite
from sejury.sandbox.base import ExecStatus, SandboxProvider
from sejury.sandbox.libraries import missing_library, missing_note

MAX_ADAPT_ROUNDS = 3
KEPT = 128  # finished reference runs kept per sandbox provider

Result = tuple[RunReport, list[str], str]  # the report, the notes of the adaptation, the program that ran
_RUNS: weakref.WeakKeyDictionary[SandboxProvider, OrderedDict[tuple[Any, ...], Result | asyncio.Future[Any]]] = \
    weakref.WeakKeyDictionary()


async def run_reference(provider: SandboxProvider, language: str, reference: str, suite: Suite,
                        ) -> tuple[RunReport, list[str]]:
    """Run ``suite`` on the reference.  A reference that does not load is adapted to the signature
    it is joined to (the language's ``adapt_reference``, guided by the compiler; up to three
    rounds) and kept only if it then loads; returns the report and a note per change made."""
    report, notes, _ = await run_reference_program(provider, language, reference, suite)
    return report, notes


async def settle_random(provider: SandboxProvider, language: str, reference: str, suite: Suite,
                        values: dict[int, list[str]], *, timeout: float | None = None,
                        ) -> tuple[Settled, RunReport | None]:
    """The reference's ``values`` (of ``suite``, from the usual random state) settled against the
    same suite run from another state, where the reference may draw random numbers
    (``random_state.py``); and that second run (None where there is none)."""
    if not values or not may_draw(language, reference):
        return Settled(values), None
    again, _, _ = await run_reference_program(provider, language, reference,
                                              dataclasses.replace(suite, random_state=ANOTHER_STATE), timeout=timeout)
    return settle(values, again.values), again


async def run_reference_program(provider: SandboxProvider, language: str, reference: str, suite: Suite, *,
                                timeout: float | None = None) -> Result:
    """``run_reference``, also returning the program that ran (the adapted one, when kept); the
    same run asked for again of the same provider is not run again (see the module's doc)."""
    lang = languages.get(language)
    try:
        runs = _RUNS.setdefault(provider, OrderedDict())
    except TypeError:  # a provider that cannot be weakly referenced: nothing kept
        return await _run(provider, language, reference, suite, timeout)
    key = (language, lang.harness if lang else None, reference, suite.setup, tuple(suite.units), suite.random_state,
           timeout)
    loop = asyncio.get_running_loop()
    while True:
        got = runs.get(key)
        if isinstance(got, tuple):
            runs.move_to_end(key)
            return _copy(got)
        if not (isinstance(got, asyncio.Future) and got.get_loop() is loop and not got.done()):
            break  # not run yet (or under way in an event loop that is gone)
        shared: Result | None = await asyncio.shield(got)
        if shared is not None:
            return _copy(shared)
        # the run this one waited for was given up (cancelled, or it raised): run it here
    pending: asyncio.Future[Result | None] = loop.create_future()
    runs[key] = pending
    result: Result | None = None
    try:
        result = await _run(provider, language, reference, suite, timeout)
        return result
    finally:
        if runs.get(key) is pending:
            if result is not None and _keep(result[0]):
                runs[key] = _copy(result)
                while len(runs) > KEPT:
                    runs.popitem(last=False)
            else:
                del runs[key]
        pending.set_result(result)  # who asked meanwhile gets this run, kept or not


def _keep(report: RunReport) -> bool:
    return report.loaded and report.status is ExecStatus.OK and not report.tampering


def _copy(result: Result) -> Result:
    report, notes, program = result
    return report.model_copy(deep=True), list(notes), program


async def _run(provider: SandboxProvider, language: str, reference: str, suite: Suite,
               timeout: float | None) -> Result:
    lang = languages.get(language)
    report = first = await run_suite(provider, language, reference, suite, timeout=timeout)
    program, notes = reference, []
    for _ in range(MAX_ADAPT_ROUNDS):
        if report.loaded or lang is None or lang.adapt_reference is None:
            break
        adapted = lang.adapt_reference(program, report.load_error)
        if adapted is None:
            break
        program, more = adapted
        notes += more
        report = await run_suite(provider, language, program, suite, timeout=timeout)
    return (report, notes, program) if report.loaded else (first, [], reference)


def load_error_line(load_error: str) -> str:
    """The line of a load failure worth quoting: the first that names an error (a compiler's
    ``file:line: error: ...``), else the last; without the harness's ``@@LOAD FAIL`` marker."""
    lines = [x for ln in load_error.splitlines() if (x := ln.replace("@@LOAD FAIL", "").strip()) and x != "@@DONE"]
    return next((ln for ln in lines if "error" in ln.lower()), lines[-1] if lines else "")


def reference_load_failure(load_error: str, status: str = "") -> str:
    """Why nothing could be validated on a reference that does not load: a library the image lacks,
    the harness or the reference itself (never the candidate), or a run that ended first (``status``)."""
    if (module := missing_library(load_error)) is not None:
        return missing_note(module)
    said = load_error_line(load_error)[:200] or (f"the run ended ({status}) before it loaded" if status else "")
    return ("the reference does not load or compile in the sandbox, so no test can be validated (the harness or "
            f"the sample's reference is at fault, not the candidate): {said}")
