"""Collecting the evidence for ranking: one model call per problem, then sandbox runs only.

The model writes tests once, from the problem alone (S5-nl's prompt: its reply is shared with
S5-nl's cache entry).  The probe suite is those tests, each call of the problem's function
recorded, plus the problem's example inputs and type-aware mutations of them (Ex-fuzz's inputs,
no model call).  The suite runs once on the reference (when there is one) and once on every
attempt; the user's tests, validated on the reference where there is one, run on every attempt
too.  The ranking rules are ``agreement``'s.  Programs that read stdin and print are collected by
``programs`` (their examples, the user's tests and mutations of the examples as inputs; no test
is written) into the same record."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from sejury import prompts
from sejury.context import JudgeContext
from sejury.errors import InputError
from sejury.execution import languages
from sejury.execution.calls import call_writer, example_calls, reads_literals
from sejury.execution.differential import HELPER, record_calls, recorded_function, states_raises
from sejury.execution.domain import MAX_SHOWN, Domain
from sejury.execution.evidence import SuiteRun
from sejury.execution.languages import Suite
from sejury.execution.programs import reference_program
from sejury.execution.reference import run_reference_program
from sejury.execution.runner import RunReport, assemble_program, call_form, run_suite, split_tests
from sejury.execution.stated import Stated, stated_examples
from sejury.rank import agreement
from sejury.rank.records import Behaviour, Ranking, TieBreak, TieBreakOption
from sejury.roster import Strategy
from sejury.sandbox.base import SandboxProvider
from sejury.sandbox.libraries import sample_profile
from sejury.schema import Sample, Task
from sejury.strategies._calls import Recorder, ask_text
from sejury.strategies._tests_text import read_tests
from sejury.strategies.example_fuzz import written_examples
from sejury.traces.store import new_judgment_id

if TYPE_CHECKING:
    from sejury.rank.compare import Comparison

TESTS_PROMPT = "generate_tests_nl"  # tests from the problem alone: no attempt, no reference in the prompt
SANDBOX_RUNS_AT_ONCE = 2  # the machine's cores, not the attempts, bound the useful concurrency


@dataclass(frozen=True)
class Problem:
    """One problem and its attempts, as ``Judge.rank`` takes them."""

    id: str
    problem: str
    candidates: list[str]
    language: str = "python"
    reference: str | None = None
    tests: str | None = None  # the user's own tests
    ids: list[str | None] | None = None  # the attempts' own ids, when they have them
    form: str | None = None  # "stdio": programs that read stdin and print (else as ``is_stdio`` finds it)

    def sample(self) -> Sample:
        """The problem as a sample (the first attempt as its candidate): its prompts and profile."""
        return Sample(id=self.id, task=Task.CODE_GENERATION, language=self.language, problem=self.problem,
                      candidate=self.candidates[0] if self.candidates else "", reference=self.reference,
                      tests=self.tests, metadata={"form": self.form} if self.form else {})


@dataclass
class Collected:
    """Everything ranking reads, gathered once: ``order`` ranks it with or without the reference."""

    problem: Problem
    language: str
    tests: str
    probe: agreement.Probe
    behaviours: list[Behaviour]
    reference: Behaviour | None  # the reference's run (None: no reference, or it does not load)
    rec: Recorder
    sandbox_runs: int
    seconds: float
    notes: list[list[str]] = field(default_factory=list)  # per attempt, beyond its values (``agreement.rank``)
    caveats: list[str] = field(default_factory=list)  # why the choice needs review whatever the order
    # why the ranking is not validated where a reference was given and ``reference`` is None
    no_reference: str = "the reference does not load or compile, so the tests could not be validated on it"


async def rank_problem(ctx: JudgeContext, p: Problem, *, tie_break: TieBreakOption = "none") -> Ranking:
    """Write the tests once, run everything, and order the attempts (``agreement``); with
    ``tie_break`` "model", the model chooses among different behaviours that share the top score
    (``tiebreak``)."""
    collected = await collect(ctx, p)
    use_reference = p.reference is not None
    ranking = order(collected, use_reference=use_reference)
    if tie_break == "model":
        from sejury.rank.tiebreak import break_ties  # it asks compare's question; compare imports this module

        ranking = await break_ties(ctx, collected, ranking, use_reference=use_reference)
    return stored(ctx, "rank", ranking)


R = TypeVar("R", Ranking, "Comparison")


def stored(ctx: JudgeContext, kind: str, record: R) -> R:
    """``record`` with its trace kept in the judge's trace store (when it keeps traces)."""
    if ctx.traces is not None:
        record.trace_id = new_judgment_id("r")
        ctx.traces.put_ranking(record.trace_id, kind, record.problem_id, record.language, ctx.llm.name,
                               record.seconds, record.model_dump_json())
    return record


async def collect(ctx: JudgeContext, p: Problem) -> Collected:
    """One model call (the tests), then the sandbox runs: the reference's, and every attempt's
    (identical attempts run once)."""
    if not p.candidates:
        raise InputError(f"problem {p.id}: no attempt to rank", field="candidates")
    lang = languages.get(p.language)
    if lang is None:
        raise InputError(f"problem {p.id}: no runner for {p.language!r}; runners: {', '.join(languages.names())}",
                         field="language")
    ctx = ctx.for_sample(p.sample()) if ctx.sandbox is not None else ctx
    if ctx.sandbox is None or not ctx.execute:
        raise InputError("ranking runs the attempts: it needs the sandbox (Judge(execute=True), --execute)",
                         field="execute")
    from sejury.rank.programs import collect_programs, is_program_problem  # it builds on this module's records

    if is_program_problem(p):
        return await collect_programs(ctx, p, lang.name)
    started = time.perf_counter()
    rec = Recorder(Strategy("generate_tests_nl"))
    tests, _ = await _write_tests(ctx, rec, p)
    probe, suite = _probe(p, tests, recorded_function(p.problem))
    runs = _Runs(ctx.sandbox, lang.name, rec)
    reference = None
    if p.reference is not None:
        report = await runs.run(reference_program(lang.name, p.problem, p.reference), suite, "run_reference",
                                reference=True)
        reference = _behaviour(report, probe.tests) if report.loaded else None
    user = await _user_suite(runs, p)
    programs = [assemble_program(lang.name, p.problem, c) for c in p.candidates]
    distinct = list(dict.fromkeys(programs))
    ran = await asyncio.gather(*(runs.attempt(prog, suite, user, probe.tests, f"run_attempt_{programs.index(prog)}")
                                 for prog in distinct))
    by_program = dict(zip(distinct, ran, strict=True))
    return Collected(p, lang.name, tests, probe, [by_program[x] for x in programs], reference, rec, runs.count,
                     time.perf_counter() - started)


def order(c: Collected, *, use_reference: bool, use_stated: bool = True, tie: TieBreak | None = None) -> Ranking:
    """The ranking of collected evidence; ``use_reference`` False ranks as if there were none,
    ``use_stated`` False without the problem's stated examples (``agreement.rank``); ``tie``: the
    model's tie-break, its order applied to the tied behaviours at the top."""
    reference = c.reference if use_reference else None
    ranked = agreement.rank(c.behaviours, c.probe, reference=reference, ids=c.problem.ids, use_stated=use_stated,
                            notes=c.notes)
    if tie is not None and any(tie.wins):  # where the model won no pair, the evidence's order stays
        ranked = agreement.reorder(ranked, c.behaviours, tie.order)
    why = [*agreement.review(ranked, c.behaviours, c.probe, reference is not None, tie), *c.caveats]
    if use_reference and c.reference is None:
        why.insert(0, c.no_reference)
    rules = (agreement.PROGRAM_REFERENCE_RULE, agreement.PROGRAM_RULE) if c.probe.stdio else \
        (agreement.REFERENCE_RULE, agreement.NO_REFERENCE_RULE)
    return Ranking(
        problem_id=c.problem.id, language=c.language, chosen=ranked[0].index if ranked[0].loaded else None,
        validated=reference is not None, rule=rules[0] if reference is not None else rules[1],
        candidates=ranked, needs_review=bool(why), reasons=why, tests=c.tests, tests_total=c.probe.tests,
        tests_valid=sum(reference.passed[:c.probe.tests]) if reference is not None and not c.probe.stdio else None,
        tests_out_of_domain=len(c.probe.outside_domain), outside_domain=list(c.probe.outside_domain[:MAX_SHOWN]),
        probe_inputs=len(c.probe.units), model_calls=c.rec.calls, sandbox_runs=c.sandbox_runs,
        seconds=round(c.seconds, 3), events=list(c.rec.events), tie_break=tie)


async def _write_tests(ctx: JudgeContext, rec: Recorder, p: Problem) -> tuple[str, int]:
    s = p.sample()
    user = prompts.render(TESTS_PROMPT, Task.CODE_GENERATION, "write", language=p.language, problem=p.problem,
                          reference="", test_style=prompts.test_style(p.language, sample_profile(s)),
                          call=call_form(p.language, p.problem, p.reference or ""))
    reply = await ask_text(ctx, rec, "write_tests", user)
    return read_tests(reply.text, p.language, reply.finish_reason == "length")


def _probe(p: Problem, tests: str, function: str | None) -> tuple[agreement.Probe, Suite]:
    """The suite every attempt runs: the generated tests, then the problem's example inputs and
    mutations of them, each call of ``function`` recorded."""
    suite = split_tests(p.language, tests, reference=p.reference or "") if tests else Suite("", [])
    units, setup = list(suite.units), suite.setup
    domain = Domain.of(p.problem, function, p.language)
    units, outside = domain.split(units) if domain is not None else (units, [])  # as S5 leaves them out
    tests_run = len(units)
    stated: list[tuple[int, Any, str]] = []
    if function is not None:
        setup = record_calls(setup, HELPER, function, helpers=True)
        units = [record_calls(u, i, function) for i, u in enumerate(units)]
        examples, stated_calls = _example_inputs(p, function)
        stated = [(len(units) + examples.index(call), s.expected, s.text) for call, s in stated_calls
                  if call in examples]
        units += [record_calls(c, len(units) + k, function) for k, c in enumerate(examples)]
    tested = suite.tested | ({function} if function is not None else set())
    return (agreement.Probe(function, units, tests_run, states_raises(p.problem), tuple(stated), tuple(outside)),
            Suite(setup, units, tested=frozenset(tested)))


def _example_inputs(p: Problem, function: str) -> tuple[list[str], list[tuple[str, Stated]]]:
    """The example inputs and their mutations, written as calls; and the examples whose output the
    problem states, each with its call as written."""
    if not reads_literals(p.language):
        return [], []
    seeds = example_calls(p.problem, function, p.language)
    write = call_writer(p.problem, function, p.language)
    if not seeds or write is None:
        return [], []
    seed = int(hashlib.sha256(p.problem.encode()).hexdigest()[:8], 16)  # the problem's text alone
    shown, made = written_examples(seeds, write, p.language, seed)
    stated = [(call, s) for s in stated_examples(p.problem, function, p.language) if (call := write(s.call))]
    return [*shown, *made], stated


async def _user_suite(runs: _Runs, p: Problem) -> Suite | None:
    """The user's tests, those the reference fails dropped (when there is one)."""
    if not p.tests:
        return None
    suite = split_tests(p.language, p.tests, reference=p.reference or "")
    if not suite.units:
        raise InputError(f"problem {p.id}: no test could be read from the tests given", field="tests")
    if p.reference is None:
        return suite
    report = await runs.run(reference_program(p.language, p.problem, p.reference), suite,
                            "run_user_tests_on_reference")
    kept = [u for u, ok in zip(suite.units, report.passed, strict=True) if ok]
    return dataclasses.replace(suite, units=kept) if kept else None


@dataclass
class _Runs:
    """The sandbox runs of one ranking, a few at a time, each in the trace."""

    sandbox: SandboxProvider
    language: str
    rec: Recorder
    count: int = 0

    def __post_init__(self) -> None:
        self._slots = asyncio.Semaphore(SANDBOX_RUNS_AT_ONCE)

    async def run(self, program: str, suite: Suite, step: str, *, reference: bool = False) -> RunReport:
        """One run; ``reference``: the program is the reference, adapted to its signature if it does
        not compile as given (``run_reference_program``)."""
        async with self._slots:
            report = (await run_reference_program(self.sandbox, self.language, program, suite))[0] if reference \
                else await run_suite(self.sandbox, self.language, program, suite)
        self.count += 1
        self.rec.sandbox_event(step, SuiteRun.of(report, suite.units))
        return report

    async def attempt(self, program: str, suite: Suite, user: Suite | None, tests: int, step: str) -> Behaviour:
        report = await self.run(program, suite, step) if suite.units else None
        own = await self.run(program, user, step + "_user_tests") if user is not None else None
        if report is None:
            report = own or await self.run(program, Suite("", []), step)
        b = _behaviour(report, tests)
        if own is not None:
            b.user_passed = own.passed  # all False when the attempt does not load (``run_suite``)
        return b


def _behaviour(report: RunReport, tests: int) -> Behaviour:
    return Behaviour(loaded=report.loaded, load_error=report.load_error, passed=report.passed[:tests],
                     values=report.values, seconds=report.seconds, tampering=report.tampering)

