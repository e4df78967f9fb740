"""Evidence on a program that reads stdin and prints (``stdio.py``): the reference answers the
inputs, the candidate runs on the ones it answered, and each output is compared with the
reference's.

An input the reference fails on (non-zero exit, no answer within ``REFERENCE_LIMIT``) lies outside
the problem's domain and is dropped; so is a case whose stated output the reference does not
print (the statement's example, or the sample's own test, is wrong, or the problem accepts several
answers: ``IoCheck.several``).  Each kept input gives the candidate a time limit of its own:
``LIMIT_FACTOR`` times the reference's time, at least ``MIN_LIMIT``; the candidate runs up to
``SLOW_FACTOR`` times that, so a right output that came too late (``slow``) is told apart from a
wrong one and from one that never came (``timeout``).  The record is a ``TestExecution`` like a
function's (``to_execution``): S5-exec's pass ratio, S5-diff's agreement and S5-runs' count read it
unchanged.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel

from sejury.execution.differential import DifferentialRun, Mismatch
from sejury.execution.evidence import SuiteRun, TestExecution, UnitOutcome
from sejury.execution.reference import reference_load_failure
from sejury.execution.stdio import (
    OUTPUT_SHOWN,
    IoCase,
    IoOutput,
    IoRun,
    digest_of,
    run_io,
    same_output,
    several_answers,
)
from sejury.sandbox.base import ExecStatus, SandboxProvider
from sejury.sandbox.libraries import missing_library, missing_note

REFERENCE_LIMIT = 10.0
MIN_LIMIT = 2.0
LIMIT_FACTOR = 5.0
SLOW_FACTOR = 3.0
MAX_RUN = 20.0  # the longest any one input runs on the candidate
MAX_SHOWN = 5

Outcome = Literal["pass", "wrong", "slow", "timeout", "error", "not run"]


def shown_input(text: str, most: int = 160) -> str:
    """An input as a verdict quotes it: ``stdin "5 10\\n"``."""
    quoted = json.dumps(text, ensure_ascii=False)
    return "stdin " + (quoted if len(quoted) <= most else quoted[:most] + '..."')


def _short(text: str, most: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= most else flat[:most] + "..."


class InputResult(BaseModel):
    outcome: Outcome
    why: str = ""
    limit: float = 0.0


class IoCheck(BaseModel):
    """The candidate against the reference on ``cases``."""

    cases: list[IoCase]
    reference: IoRun
    usable: list[int]  # inputs the reference answered (and whose stated output it printed)
    dropped: dict[int, str]  # why each other input is out
    several: bool  # outputs may rightly differ: the problem says so, or the reference differs from a stated one
    candidate: IoRun | None = None
    results: dict[int, InputResult] = {}

    @property
    def passed(self) -> int:
        return sum(1 for r in self.results.values() if r.outcome == "pass")

    @property
    def returned(self) -> int:
        """Inputs the candidate ran on to the end without failing (whatever it printed)."""
        return sum(1 for r in self.results.values() if r.outcome in ("pass", "wrong", "slow"))


def limit_of(ref: IoOutput) -> float:
    """An input's time limit: ``LIMIT_FACTOR`` times the reference's time on it, at least ``MIN_LIMIT``."""
    return round(max(MIN_LIMIT, LIMIT_FACTOR * ref.seconds), 2)


def run_limit(limit: float) -> float:
    """How long a program runs on an input of limit ``limit`` before it is killed (a later output is "slow")."""
    return min(MAX_RUN, SLOW_FACTOR * limit)


async def answer(sandbox: SandboxProvider, language: str, reference: str, cases: list[IoCase],
                 problem: str) -> IoCheck:
    """Run the reference on every case; keep the inputs it answers (and whose stated output it prints)."""
    run = await run_io(sandbox, language, reference, [c.input for c in cases], [REFERENCE_LIMIT] * len(cases))
    usable: list[int] = []
    dropped: dict[int, str] = {}
    differs = False
    for i, case in enumerate(cases):
        out = run.outputs.get(i)
        if not run.loaded:
            dropped[i] = "the reference does not load"
        elif out is None:
            dropped[i] = "the reference did not run on it (the run's time ran out)"
        elif out.timed_out:
            dropped[i] = f"the reference gives no answer within {REFERENCE_LIMIT:g} s"
        elif not out.ok:
            dropped[i] = f"the reference fails on it (exit {out.exit_code}): {_short(out.stderr_tail)}"
        elif case.output is not None and not same_output(case.output, out):
            differs = True
            dropped[i] = f"the reference prints {_short(out.stdout)!r}, not the stated {_short(case.output)!r}"
        else:
            usable.append(i)
    return IoCheck(cases=cases, reference=run, usable=usable, dropped=dropped,
                   several=several_answers(problem) or differs)


def stated(cases: list[IoCase], problem: str) -> IoCheck:
    """Without a reference: the stated outputs are the answers, unchecked (the cases without one
    are dropped); the candidate's limit is then ``MIN_LIMIT`` on each."""
    outputs = {i: IoOutput(exit_code=0, seconds=0.0, bytes=len(c.output.encode()), digest=digest_of(c.output),
                           stdout=c.output.encode()[:OUTPUT_SHOWN].decode(errors="replace"))
               for i, c in enumerate(cases) if c.output is not None}
    return IoCheck(cases=cases, reference=IoRun(loaded=True, outputs=outputs, status=ExecStatus.OK, seconds=0.0),
                   usable=sorted(outputs), several=several_answers(problem),
                   dropped={i: "no stated output" for i in range(len(cases)) if i not in outputs})


async def check(sandbox: SandboxProvider, language: str, answered: IoCheck, candidate: str | None) -> IoCheck:
    """Run the candidate on the inputs the reference answered and judge each output."""
    if candidate is None or not answered.usable:
        return answered
    ref = answered.reference.outputs
    limits = {i: limit_of(ref[i]) for i in answered.usable}
    runs = [run_limit(limits[i]) for i in answered.usable]
    run = await run_io(sandbox, language, candidate, [answered.cases[i].input for i in answered.usable], runs)
    results = {i: judged(run, run.outputs.get(n), ref[i], limits[i], runs[n]) for n, i in enumerate(answered.usable)}
    return answered.model_copy(update={"candidate": run, "results": results})


def judged(run: IoRun, got: IoOutput | None, want: IoOutput | None, limit: float, ran: float, *,
           stated: bool = False) -> InputResult:
    """One input's outcome: ``got`` (the program's output, None: not run) against ``want`` (the
    reference's output; ``stated``: the output the problem or the tests state), within ``limit``
    seconds (``ran``: when it was killed).  ``want`` None: no output is known (ranking's inputs
    without a reference, compared across attempts instead): an output in time is "pass", one after
    the limit "slow"."""
    timed = want is not None and not stated
    took = f" (the reference took {want.seconds:.2f} s)" if want is not None and timed else ""
    if not run.loaded:
        return InputResult(outcome="error", why="the candidate does not load", limit=limit)
    if got is None:
        return InputResult(outcome="not run", why="not run (the run's time ran out)", limit=limit)
    if got.timed_out:
        return InputResult(outcome="timeout", limit=limit, why=f"no output within {ran:g} s{took}")
    if not got.ok and (module := missing_library(got.stderr_tail)) is not None:
        return InputResult(outcome="not run", why=missing_note(module), limit=limit)
    if not got.ok:
        return InputResult(outcome="error", limit=limit, why=f"exit {got.exit_code}: {_short(got.stderr_tail, 160)}")
    if want is not None and not same_output(want, got):
        where = "the stated output is" if stated else "the reference prints"
        return InputResult(outcome="wrong", limit=limit,
                           why=f"prints {_short(got.stdout)!r} where {where} {_short(want.stdout)!r}")
    if got.seconds > limit:
        what = "the right output" if want is not None else "an output"
        base = f" ({LIMIT_FACTOR:g}x the reference's {want.seconds:.2f} s)" if want is not None and timed else ""
        return InputResult(outcome="slow", limit=limit,
                           why=f"{what}, too slow: {got.seconds:.2f} s against a limit of {limit:g} s{base}")
    return InputResult(outcome="pass", limit=limit)


def suite_run(run: IoRun, cases: list[IoCase], order: list[int], passed: dict[int, bool], why: dict[int, str],
              ) -> SuiteRun:
    """A program's run on the inputs ``order`` as the trace shows a suite's run."""
    outcomes = [UnitOutcome(test=shown_input(cases[i].input, 560), passed=passed[i], why=why.get(i, ""))
                for i in order]
    failures = [{"test": shown_input(cases[i].input), "why": why.get(i, "")} for i in order if not passed[i]]
    return SuiteRun(loaded=run.loaded, total=len(order), passed=sum(passed[i] for i in order),
                    status=run.status.value, seconds=round(run.seconds, 3), failures=failures[:MAX_SHOWN],
                    load_error=run.load_error[-600:], outcomes=outcomes[:100], sealed=False, tampering=run.tampering)


def to_execution(c: IoCheck, *, language: str, sandbox: str, generated: int | None = None) -> TestExecution:
    """The record S5 and the sample-tests juror keep (``TestExecution``, ``form`` "stdio")."""
    ex = TestExecution(status="ran", language=language, generated=generated or len(c.cases),
                       invalid_on_reference=len(c.dropped), valid=len(c.usable), sandbox=sandbox, form="stdio",
                       several_answers=c.several,
                       reference=suite_run(c.reference, c.cases, list(range(len(c.cases))),
                                           {i: i in c.usable for i in range(len(c.cases))}, c.dropped),
                       valid_tests="\n\n".join(f"Input:\n{c.cases[i].input.rstrip()}\nExpected output:\n"
                                               f"{c.reference.outputs[i].stdout.rstrip()}" for i in c.usable))
    if not c.reference.loaded:
        return ex.model_copy(update={"status": "skipped", "reason": reference_load_failure(c.reference.load_error)})
    if not c.usable:
        gaps = {m for o in c.reference.outputs.values() if (m := missing_library(o.stderr_tail))}
        none = missing_note(min(gaps)) if gaps else ("the reference answered none of the inputs: "
                                                      + "; ".join(sorted(set(c.dropped.values())))[:300])
        return ex.model_copy(update={"status": "skipped", "reason": none})
    if c.candidate is None:
        return ex
    if not c.candidate.loaded and (module := missing_library(c.candidate.load_error)) is not None:
        return ex.model_copy(update={"status": "skipped", "reason": missing_note(module)})
    if c.results and all(r.why.startswith("missing library") for r in c.results.values()):
        return ex.model_copy(update={"status": "skipped", "reason": next(iter(c.results.values())).why})
    passed = {i: c.results[i].outcome == "pass" for i in c.usable}
    why = {i: c.results[i].why for i in c.usable}
    mismatches = [Mismatch(test=shown_input(c.cases[i].input), reference=_short(c.reference.outputs[i].stdout, 200),
                           candidate=why[i][:200]) for i in c.usable if not passed[i]][:MAX_SHOWN]
    diff = DifferentialRun(function="standard output", inputs=len(c.usable), agreed=c.passed,
                           ratio=c.passed / len(c.usable), returned=c.returned, mismatches=mismatches)
    return ex.model_copy(update={"candidate": suite_run(c.candidate, c.cases, c.usable, passed, why),
                                 "executable": c.candidate.loaded, "pass_ratio": c.passed / len(c.usable),
                                 "differential": diff, "tampering": c.candidate.tampering})


__all__ = ["IoCheck", "answer", "check", "judged", "limit_of", "run_limit", "shown_input", "suite_run",
           "to_execution"]
