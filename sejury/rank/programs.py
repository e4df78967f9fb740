"""Ranking programs that read stdin and print (``execution/stdio.py``), with the parts that judge them.

Every attempt runs, in one sandbox run of the sealed loop (``run_io``), on
1. the problem's own examples (``statement_examples``): their stated output is known;
2. the user's tests, in the form judging takes for a program (``parse_cases``: a JSON list of
   ``{"input", "output"}`` or Input/Output blocks);
3. up to ``FUZZ_INPUTS`` mutations of the examples' inputs (``io_fuzz``, Ex-fuzz's very inputs; of
   the user's tests' inputs where the problem shows no example).
With a reference, it answers every input first (``io_evidence.answer``: an input it fails on, or
whose stated output it does not print, is dropped) and its outputs are the expected ones.  Without
one the examples' and the tests' stated outputs are, and on the mutated inputs the attempts are
compared with each other.  Outputs are compared as judging compares them (``same_output``), each
input within its own time limit (``io_evidence.judged``): a right output after the limit is
"slow", none within three times the limit a "timeout", either way not a pass.

Each input's outputs are put in classes of the same output: an attempt's value on the input is its
class (``=0`` is the expected output's where one is known), or ``!slow``, ``!timeout``, ``!error``;
so attempts that print the same outputs on the same inputs form one behaviour in ``agreement``, and
are scored as functions are, the examples standing for the stated examples.  An attempt over its
time limit on ``GIVE_UP`` inputs is not run on the rest (a hung attempt costs seconds, not minutes).

The model is asked for inputs (S5's prompt for programs, without the reference: no attempt and no
reference steers them) only where there is nothing to start from: no example in the problem and no
test of the user's.  Otherwise no model call is made: the examples and their mutations are inputs
inside the problem's domain, and the model's often are not (docs/programs.md)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from sejury import prompts
from sejury.context import JudgeContext
from sejury.errors import InputError
from sejury.execution import io_evidence, languages
from sejury.execution.io_fuzz import mutate_io
from sejury.execution.stdio import (
    IoCase,
    IoOutput,
    IoRun,
    is_stdio,
    parse_cases,
    reads_stdin,
    run_io,
    same_output,
    statement_examples,
)
from sejury.rank.agreement import Probe
from sejury.rank.evidence import SANDBOX_RUNS_AT_ONCE, Collected, Problem
from sejury.rank.records import Behaviour
from sejury.roster import Strategy
from sejury.strategies import _io
from sejury.strategies._calls import Recorder, ask_text

FUZZ_INPUTS = _io.FUZZ_INPUTS  # as Ex-fuzz makes them
GIVE_UP = 3  # inputs over their time limit after which an attempt is not run on the others
SEVERAL = ("the problem accepts several answers (or the reference prints another output than a stated example): "
           "outputs are compared as text, with no checker, so a right attempt may print another output than the "
           "others")
Ran = dict[int, tuple[io_evidence.InputResult, IoOutput | None]]  # per input: its outcome, the output


def is_program_problem(p: Problem) -> bool:
    """Are the attempts programs that read stdin?  As judging tells (``is_stdio``): the row's ``form``
    when given, else an Input and an Output section in the problem and a reader of stdin: the
    reference, or without one at least half of the attempts."""
    readers = [c for c in p.candidates if reads_stdin(p.language, c)]
    reader = readers[0] if readers and 2 * len(readers) >= len(p.candidates) else p.candidates[0]
    return is_stdio(p.problem, p.reference, reader, p.language, p.sample().metadata)


@dataclass(frozen=True)
class Inputs:
    cases: list[IoCase]
    kinds: list[str]  # per case: "example", "yours", "model" or "mutation"
    written: str = ""  # the model's inputs, as S5 keeps them ("" where it was not asked)


async def inputs_of(ctx: JudgeContext, rec: Recorder, p: Problem) -> Inputs:
    """The problem's examples, the user's tests, the model's inputs where neither gives one, and
    mutations of the first of these that has inputs."""
    examples = statement_examples(p.problem)
    yours: list[IoCase] = []
    if p.tests and p.tests.strip():
        try:
            yours = parse_cases(p.tests)
        except ValueError as exc:
            raise InputError(f"problem {p.id}: {exc}", field="tests") from None
        if not yours:
            raise InputError(f"problem {p.id}: no input/output pair could be read from the tests given (a program's "
                             'tests are a JSON list of {"input": ..., "output": ...} or Input/Output blocks)',
                             field="tests")
    seeds, model, written = [c.input for c in examples] or [c.input for c in yours], list[str](), ""
    if not seeds:
        reply = await ask_text(ctx, rec, "write_inputs", prompts.render_partial(
            "io_inputs", language=p.language, problem=p.problem, reference=""))
        model = seeds = _io.read_inputs(reply.text)
        if not model:
            raise InputError(f"problem {p.id}: no input to run the programs on: the problem shows no Input/Output "
                             "example, no tests were given, and the model's reply held no input; give tests (a JSON "
                             'list of {"input": ..., "output": ...})', field="tests")
        written = _io.SEPARATOR.join(x.rstrip("\n") for x in model)
    made = mutate_io(seeds, FUZZ_INPUTS, seed=int(p.sample().problem_digest()[:8], 16))
    cases = [*examples, *yours, *(IoCase(x) for x in model), *(IoCase(x) for x in made)]
    kinds = [k for k, n in (("example", len(examples)), ("yours", len(yours)), ("model", len(model)),
                            ("mutation", len(made))) for _ in range(n)]
    return Inputs(cases, kinds, written)


async def collect_programs(ctx: JudgeContext, p: Problem, language: str) -> Collected:
    """The reference's run (when there is one), then every distinct attempt's, on ``inputs_of``."""
    assert ctx.sandbox is not None
    sandbox = ctx.sandbox
    lang = languages.get(language)
    if lang is None or lang.stdio is None:
        raise InputError(f"problem {p.id}: no way to run a {language} program on standard input", field="language")
    started = time.perf_counter()
    rec = Recorder(Strategy("example_fuzz"))
    inputs = await inputs_of(ctx, rec, p)
    cases = inputs.cases
    slots = asyncio.Semaphore(SANDBOX_RUNS_AT_ONCE)
    answered, no_reference = None, ""
    if p.reference is not None:
        async with slots:
            answered = await io_evidence.answer(sandbox, language, p.reference, cases, p.problem)
        rec.sandbox_event("run_reference", io_evidence.suite_run(
            answered.reference, cases, list(range(len(cases))), {i: i in answered.usable for i in range(len(cases))},
            answered.dropped))
        if not answered.reference.loaded or not answered.usable:
            no_reference = ("the reference does not load or compile" if not answered.reference.loaded else
                            "the reference answered none of the inputs") + ", so the attempts are ranked as without one"
            answered = None
    expected = answered or io_evidence.stated(cases, p.problem)
    known = {i: expected.reference.outputs[i] for i in expected.usable}
    order = expected.usable if answered is not None else list(range(len(cases)))
    limits = [io_evidence.limit_of(known[i]) if i in known else io_evidence.MIN_LIMIT for i in order]
    stops = [io_evidence.run_limit(x) for x in limits]

    async def attempt(program: str) -> tuple[IoRun, Ran]:
        async with slots:
            run = await run_io(sandbox, language, program, [cases[i].input for i in order], stops, give_up=GIVE_UP,
                               soft=limits)
        got: Ran = {i: (io_evidence.judged(run, run.outputs.get(n), known.get(i), limits[n], stops[n],
                                           stated=answered is None), run.outputs.get(n)) for n, i in enumerate(order)}
        rec.sandbox_event(f"run_attempt_{p.candidates.index(program)}", io_evidence.suite_run(
            run, cases, order, {i: r.outcome == "pass" for i, (r, _) in got.items()},
            {i: r.why for i, (r, _) in got.items()}))
        return run, got

    distinct = list(dict.fromkeys(p.candidates))
    done = dict(zip(distinct, await asyncio.gather(*(attempt(x) for x in distinct)), strict=True))
    runs = [done[x] for x in p.candidates]
    reference, values = _values(order, known, runs)
    yours = [i for i in order if inputs.kinds[i] == "yours" and i in known]
    behaviours = [Behaviour(loaded=run.loaded, load_error=run.load_error, values=v, seconds=run.seconds,
                            tampering=run.tampering,
                            user_passed=[got[i][0].outcome == "pass" for i in yours] if yours else None)
                  for (run, got), v in zip(runs, values, strict=True)]
    caveats = [SEVERAL] if expected.several else []
    if answered is not None and "yours" in inputs.kinds and not yours:
        caveats.append("none of your tests holds on the reference (it fails them or prints another output): "
                       "they were dropped")
    stated = tuple((i, "=0", f"{io_evidence.shown_input(cases[i].input, 50)} prints "
                             f"{' '.join(known[i].stdout.split())[:30]}")
                   for i, kind in enumerate(inputs.kinds) if kind == "example" and i in known)
    probe = Probe("standard output", [c.input for c in cases], 0, stated=stated, stdio=True)
    c = Collected(p, language, inputs.written, probe, behaviours,
                  Behaviour(loaded=True, values=reference) if answered is not None else None, rec,
                  int(p.reference is not None) + len(distinct), time.perf_counter() - started,
                  notes=[notes(got, cases, inputs.kinds) for _, got in runs], caveats=caveats)
    c.no_reference = no_reference or c.no_reference
    return c


def _values(order: list[int], known: dict[int, IoOutput], runs: list[tuple[IoRun, Ran]],
            ) -> tuple[dict[int, list[str]], list[dict[int, list[str]]]]:
    """Each input's outputs in classes of the same output (``same_output``): the expected output's
    values (``=0``) and each attempt's (its output's class, or ``!`` and its outcome)."""
    expected: dict[int, list[str]] = {}
    values: list[dict[int, list[str]]] = [{} for _ in runs]
    for i in order:
        classes: list[IoOutput] = []
        if i in known:
            expected[i] = _label(classes, known[i])
        for v, (run, got) in zip(values, runs, strict=True):
            result, out = got[i]
            if run.loaded:
                v[i] = _label(classes, out) if result.outcome in ("pass", "wrong") and out is not None else \
                    [f"!{result.outcome}"]
    return expected, values


def _label(classes: list[IoOutput], out: IoOutput) -> list[str]:
    """``out``'s class among ``classes`` (the first output of each), a new one where it is none's."""
    k = next((n for n, c in enumerate(classes) if same_output(c, out)), len(classes))
    if k == len(classes):
        classes.append(out)
    return [f"={k}"]


def notes(got: Ran, cases: list[IoCase], kinds: list[str]) -> list[str]:
    """What an attempt's runs showed beyond its outputs: inputs it was too slow on, hung on, failed
    on, printed another output than the known one on (the reference's, else the stated one), or was
    not run on."""
    out = []
    by: dict[str, list[int]] = {}
    for i, (r, _) in got.items():
        by.setdefault(r.outcome, []).append(i)
    if "error" in by and got[by["error"][0]][0].why == "the candidate does not load":
        return []
    for outcome, what in (("wrong", "prints a wrong output"), ("slow", "too slow (an output after its time limit)"),
                          ("timeout", "hangs or is far too slow (no output within 3x its time limit)"),
                          ("error", "fails (a non-zero exit)")):
        if outcome in by:
            first = by[outcome][0]
            out.append(f"{what} on {len(by[outcome])} input(s) (first, {_source(kinds[first])} "
                       f"{io_evidence.shown_input(cases[first].input, 60)}: {got[first][0].why[:160]})")
    over = len(by.get("slow", [])) + len(by.get("timeout", []))
    if "not run" in by:
        why = (f"stopped after {over} inputs over their time limit" if over >= GIVE_UP else
               got[by["not run"][0]][0].why)
        out.append(f"not run on {len(by['not run'])} input(s): {why}")
    return out


def _source(kind: str) -> str:
    return {"example": "the problem's example", "yours": "your test", "model": "the model's input"}.get(
        kind, "a mutated input")
