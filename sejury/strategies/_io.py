"""The execution jurors on a program that reads stdin and prints (``execution/stdio.py``): the
sample's tests (else the problem's own examples), S5's inputs, and mutations of both, each
answered by the reference and compared on the candidate's output (``execution/io_evidence.py``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from sejury.context import JudgeContext
from sejury.execution import io_evidence
from sejury.execution.evidence import TestExecution
from sejury.execution.io_fuzz import mutate_io
from sejury.execution.stdio import IoCase, is_stdio, parse_cases, statement_examples
from sejury.schema import Sample, Task
from sejury.scoring import ParsedReply
from sejury.strategies.base import Outcome, Recorder

SEPARATOR = "\n---\n"  # between inputs in S5's ``tests`` artifact (and in the model's reply)
MAX_INPUTS = 8
MAX_INPUT_CHARS = 2000
FUZZ_INPUTS = 20


def is_program(sample: Sample) -> bool:
    return sample.task is Task.CODE_GENERATION and is_stdio(sample.problem, sample.reference, sample.candidate,
                                                             sample.language, sample.metadata)


def model_inputs_join(applies: Callable[[Sample], str | None]) -> Callable[[Sample, bool], bool]:
    """The ``joins_default`` rule of the jurors that rest on S5's model-written inputs (S5-exec,
    S5-diff): on a program whose problem shows examples they stay out of the default team (they
    can still be asked for), because the examples and their mutations are inputs inside the
    problem's domain and the model's often are not.  Measured on 40 APPS rows: 4 of 13 right
    programs failed the model's inputs, 2 of 17 the mutated examples, and the team with them
    caught no wrong program more (docs/results/2026-11-26-programs-and-libraries.md)."""
    def joins(sample: Sample, execute: bool) -> bool:
        if is_program(sample) and statement_examples(sample.problem):
            return False
        return execute and applies(sample) is None

    return joins


def own_cases(sample: Sample) -> tuple[list[IoCase], str]:
    """The sample's tests, else the problem's examples; and which they are."""
    if sample.tests and sample.tests.strip():
        return parse_cases(sample.tests), "the sample's tests"
    return statement_examples(sample.problem), "the problem's examples"


_FENCE = re.compile(r"```[^\n]*\n(.*?)```", re.S)


# a line that heads one input inside a block: "# Input 2", "Input 3:", "Test case 1", "---"
_HEAD = re.compile(r"^[ \t]*(?:-{3,}|(?:#+|//)?\s*(?:input|test(?:\s*case)?|case|example)\s*#?\s*\d*\s*:?)\s*$",
                   re.I | re.M)


def read_inputs(reply: str) -> list[str]:
    """The inputs of the model's reply: each fenced block, split at heading lines (``---``,
    ``# Input 2``, ``Test case 3:``), which are dropped."""
    blocks = _FENCE.findall(reply) or [reply]
    out: list[str] = []
    for block in blocks:
        for part in _HEAD.split(block):
            text = part.strip("\n")
            if text.strip() and len(text) <= MAX_INPUT_CHARS and text + "\n" not in out:
                out.append(text + "\n")
    return out[:MAX_INPUTS]


def inputs_of(tests: str) -> list[str]:
    return [t + "\n" for t in (x.strip("\n") for x in tests.split(SEPARATOR)) if t.strip()]


async def run_cases(sample: Sample, ctx: JudgeContext, rec: Recorder, cases: list[IoCase]) -> TestExecution:
    """The reference answers ``cases`` (without one, the stated outputs are the answers, unchecked),
    the candidate runs on what it answered; the record S5 and the sample-tests juror keep."""
    assert ctx.sandbox is not None
    if sample.reference:
        answered = await io_evidence.answer(ctx.sandbox, sample.language, sample.reference, cases, sample.problem)
    else:
        answered = io_evidence.stated(cases, sample.problem)
    done = await io_evidence.check(ctx.sandbox, sample.language, answered, sample.candidate)
    ex = io_evidence.to_execution(done, language=sample.language, sandbox=ctx.sandbox.isolation)
    if sample.reference:
        rec.sandbox_event("answer_on_reference", ex.reference)
    rec.sandbox_event("run_candidate", ex.candidate)
    if not sample.reference:
        ex = ex.model_copy(update={"validated": False, "reason": "not checked on a reference (the sample has none)"})
    return ex


async def agree(sample: Sample, ctx: JudgeContext, rec: Recorder, inputs: list[str],
                artifacts: dict[str, Any]) -> Outcome:
    """The share of ``inputs`` on which the candidate prints the reference's output (Ex-fuzz, S5-fuzz)."""
    if ctx.sandbox is None:
        return Outcome(None, detail="no sandbox configured")
    ex = await run_cases(sample, ctx, rec, [IoCase(x) for x in inputs])
    diff = ex.differential
    artifacts = {**artifacts, "function": "standard output", "form": "stdio", "several_answers": ex.several_answers}
    if ex.status != "ran" or diff is None or diff.ratio is None:
        return Outcome(None, detail=ex.reason or "the reference answered none of the inputs", artifacts=artifacts)
    artifacts |= {"inputs": diff.inputs, "agreed": diff.agreed, "loads": ex.executable,
                  "mismatches": [m.model_dump() for m in diff.mismatches]}
    if ex.tampering:
        artifacts["tampering"] = ex.tampering
    return Outcome(ParsedReply(score=round(100 * diff.ratio, 2)), artifacts=artifacts, against=ex.against())


async def fuzz(sample: Sample, ctx: JudgeContext, rec: Recorder, seeds: list[str], seed: int, *,
               with_seeds: bool) -> Outcome:
    """Ex-fuzz (``with_seeds``: the examples too) and S5-fuzz on a program: up to ``FUZZ_INPUTS``
    mutations of the seeds."""
    made = mutate_io(seeds, FUZZ_INPUTS, seed=seed)
    if not made and not with_seeds:
        return Outcome(None, detail="no mutation of S5's inputs could be made")
    inputs = [*seeds, *made] if with_seeds else made
    return await agree(sample, ctx, rec, inputs, {"seeds": len(seeds), "made": len(made)})
