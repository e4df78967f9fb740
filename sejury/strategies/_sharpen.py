"""S5's second rounds (``--mutation-check N --mutation-rounds R``): when the valid tests kill
fewer of the reference's mutants than ``WEAK_SUITE``, the model is shown one surviving mutant's
change and asked for tests that tell it from the reference.  The new tests that pass on the
reference join the suite: they run on the candidate (its pass ratio counts them) and on the
survivors (the mutation score counts what they kill).  Up to R rounds, each showing the next
survivor, while the suite stays weak."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache

from sejury import prompts
from sejury.context import JudgeContext
from sejury.errors import ModelError
from sejury.execution.differential import unrecord
from sejury.execution.evidence import (
    SecondRound,
    SuiteRun,
    TestExecution,
    candidate_timeout,
    check_on_reference,
)
from sejury.execution.languages import Suite
from sejury.execution.mutants import Mutant
from sejury.execution.mutation import MAX_SURVIVORS_SHOWN, WEAK_SUITE, change_shown, still_surviving
from sejury.execution.runner import call_form, run_suite
from sejury.sandbox.libraries import sample_profile
from sejury.schema import Sample
from sejury.strategies._calls import Recorder, ask_text
from sejury.strategies._tests_text import read_tests

PROMPT = "generate_tests"  # the second round's template, whichever format wrote the first tests
TEMPLATES = tuple(f"{PROMPT}/{task}.sharpen.md" for task in ("code_generation", "program_repair"))


@cache
def version() -> str:
    """Part of S5's cache key when second rounds are on: a digest of their templates."""
    return prompts.digest(TEMPLATES)


@dataclass
class Programs:
    reference: str  # the program the tests passed on
    candidate: str | None  # None: nothing to run (a patch that does not apply)


async def sharpen(sample: Sample, ctx: JudgeContext, rec: Recorder, done: TestExecution, valid: Suite,
                  progs: Programs, survivors: list[Mutant]) -> TestExecution:
    """Up to ``ctx.mutation_rounds`` second rounds while the suite is weak; the execution record
    grown by the tests they added (``mutation.rounds`` says what each did)."""
    assert ctx.sandbox is not None and done.mutation is not None
    mutation, units = done.mutation, list(valid.units)
    waiting = list(survivors)  # the survivors not shown yet, first the next to show
    for _ in range(ctx.mutation_rounds):
        if mutation.score is None or mutation.score >= WEAK_SUITE or not waiting:
            break
        shown = waiting.pop(0)
        new, round_ = await _one_round(sample, ctx, rec, done, progs, shown, units)
        round_.score_before = mutation.score
        if new.units:
            left = await still_surviving(ctx.sandbox, done.language, survivors, new)
            round_.kills_shown = shown not in left
            round_.killed = len(survivors) - len(left)
            done = await _grow(ctx, done, new, progs, round_)
            units += new.units
            survivors = left
            waiting = [m for m in waiting if m in left]
        killed = mutation.killed + round_.killed
        mutation = mutation.model_copy(update={
            "killed": killed, "score": killed / mutation.run if mutation.run else None,
            "survivors": [m.label for m in survivors[:MAX_SURVIVORS_SHOWN]], "rounds": [*mutation.rounds, round_]})
        done = done.model_copy(update={"mutation": mutation})
    return done


async def _one_round(sample: Sample, ctx: JudgeContext, rec: Recorder, done: TestExecution, progs: Programs,
                     shown: Mutant, units: list[str]) -> tuple[Suite, SecondRound]:
    """Ask for tests against ``shown``; the new ones that pass on the reference."""
    assert ctx.sandbox is not None
    round_ = SecondRound(shown=shown.label)
    user = prompts.render(
        PROMPT, sample.task, "sharpen", language=sample.language, problem=sample.problem,
        reference=sample.reference, change=change_shown(progs.reference, shown),
        test_style=prompts.test_style(sample.language, sample_profile(sample)),
        call=call_form(sample.language, sample.problem or sample.reference or "", sample.reference or ""))
    try:
        written = await ask_text(ctx, rec, "sharpen_tests", user)
    except ModelError as exc:
        round_.reason = f"the model call failed: {exc}"
        return Suite("", []), round_
    tests, n = read_tests(written.text, sample.language, written.finish_reason == "length")
    if n == 0:
        round_.reason = "no tests could be read from the reply"
        return Suite("", []), round_
    ex, checked, _ = await check_on_reference(ctx.sandbox, done.language, progs.reference, tests)
    rec.sandbox_event("sharpen_on_reference", ex.reference)
    round_.generated = ex.generated
    seen = {unrecord(u).strip() for u in units}  # the first round's units carry S5-diff's recorder
    fresh = [u for u in checked.units if u.strip() not in seen]
    round_.valid = len(fresh)
    if not fresh:
        round_.reason = ex.reason if ex.status != "ran" else (
            "every new test failed on the reference" if not checked.units else "the new tests repeat the suite's")
    return dataclasses.replace(checked, units=fresh), round_


async def _grow(ctx: JudgeContext, done: TestExecution, new: Suite, progs: Programs, round_: SecondRound,
                ) -> TestExecution:
    """The execution record with ``new`` run on the candidate and counted in."""
    assert ctx.sandbox is not None
    if progs.candidate is None:
        extra = SuiteRun(loaded=False, total=len(new.units), passed=0, status="not run", seconds=0.0)
    else:
        report = await run_suite(ctx.sandbox, done.language, progs.candidate, new, timeout=candidate_timeout(done))
        extra = SuiteRun.of(report, new.units)
    cand = done.candidate
    merged = extra if cand is None else merge_runs(cand, extra)
    valid = done.valid + len(new.units)
    return done.model_copy(update={
        "candidate": merged, "valid": valid, "generated": done.generated + round_.generated,
        "invalid_on_reference": done.invalid_on_reference + round_.generated - round_.valid,
        "pass_ratio": merged.passed / valid if valid else None,
        "valid_tests": "\n".join(x for x in [done.valid_tests, new.setup, *new.units] if x.strip())})


def merge_runs(a: SuiteRun, b: SuiteRun) -> SuiteRun:
    """One suite's run on the candidate from two of its parts."""
    return SuiteRun(loaded=a.loaded and b.loaded, total=a.total + b.total, passed=a.passed + b.passed,
                    status=a.status if a.status == b.status else f"{a.status}+{b.status}",
                    seconds=round(a.seconds + b.seconds, 3), failures=(a.failures + b.failures)[:5],
                    load_error=a.load_error or b.load_error, outcomes=(a.outcomes + b.outcomes)[:100],
                    stdout_tail=a.stdout_tail or b.stdout_tail, stderr_tail=a.stderr_tail or b.stderr_tail)
