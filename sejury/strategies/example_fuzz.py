"""Ex-fuzz: the candidate against the reference on the problem's own examples and mutations of
them.  No LLM call at all: the inputs come from the problem's text, the answers from the reference.

Most benchmark problems show calls of their function (``>>> intersperse([1, 2, 3], 4)`` in a
docstring, ``// valid_date('03-11-2000') => true`` in a comment).  Those calls are inputs inside
the problem's domain by construction, whatever the model knows: the seeds here, in place of the
model's own calls that S5-fuzz mutates (and that may lie outside the domain).  The inputs are the
examples themselves and up to ``FUZZ_INPUTS`` type-aware mutations of them (``execution/fuzz.py``,
kept inside the domain the examples show); the reference answers them in the sandbox and the score
is ``100 * agreed / inputs``, as for S5-fuzz.  With a reference the examples' stated outputs are not
read: the reference's values are the expected ones.  Without one, the examples whose output the
problem states run alone, the stated values expected (``_stated_examples``); so do they where the
sample's reference does not load or compile (the harness's or the sample's fault).  All five languages:
Java's and C++'s examples may be written as Python's literals (as MultiPL-E's problems do), Go's
as Go's (HumanEval-X), and each input is written back by the signature's parameter types
(``typed_literals``; one that does not fit is left out).
A problem that shows no call with literal arguments leaves it unscored, saying so.
"""

from __future__ import annotations

from collections.abc import Callable

from sejury.context import JudgeContext
from sejury.execution.calls import Args, call_writer, example_calls, literal_languages, reads_literals, typed_calls
from sejury.execution.differential import Mismatch, recorded_function
from sejury.execution.fuzz import mutate_inputs
from sejury.execution.io_fuzz import VERSION as IO_FUZZ
from sejury.execution.random_state import lines as random_lines
from sejury.execution.runner import RUNNERS_VERSION
from sejury.execution.stdio import statement_examples
from sejury.execution.typed_literals import typed_parameters
from sejury.schema import Sample, StrategyResult, Task
from sejury.strategies import _io
from sejury.strategies import _stated_examples as _stated
from sejury.strategies.base import Kind, Outcome, Recorder, StrategySpec, register, when_executing
from sejury.strategies.test_fuzz import FUZZ_INPUTS, agree_on


def applies(sample: Sample) -> str | None:
    if sample.task is not Task.CODE_GENERATION:
        return "the problem's examples are calls of a function to generate"
    if sample.reference or (not _io.is_program(sample) and (found := _stated.examples_of(sample)) and found[1]):
        return None
    return "no reference to answer the examples' inputs, and the problem states no example's output"


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    if not sample.reference:
        if ctx.sandbox is None:
            return Outcome(None, detail="no sandbox configured")
        return await _stated.run(sample, ctx, rec)
    if _io.is_program(sample):
        examples = [c.input for c in statement_examples(sample.problem)]
        if not examples:
            return Outcome(None, detail="the problem shows no Input/Output example to start from")
        return await _io.fuzz(sample, ctx, rec, examples, int(sample.problem_digest()[:8], 16), with_seeds=True)
    if not reads_literals(sample.language):
        return Outcome(None, detail=f"examples are read and written in {', '.join(literal_languages())} only so far, "
                                    f"not {sample.language}")
    if ctx.sandbox is None:
        return Outcome(None, detail="no sandbox configured")
    function = recorded_function(sample.problem)
    if function is None:
        return Outcome(None, detail="the problem declares no function returning a value")
    seeds = example_calls(sample.problem, function, sample.language)
    if not seeds:
        return Outcome(None, detail=f"the problem shows no call of {function} with literal arguments")
    write = call_writer(sample.problem, function, sample.language)
    if write is None:
        return Outcome(None, detail=f"the parameter types of {function}'s signature are not read")
    shown, new = written_examples(seeds, write, sample.language, int(sample.problem_digest()[:8], 16))
    if not shown:
        types = ", ".join(t.text() for t, _ in typed_parameters(sample.problem, function, sample.language) or [])
        return Outcome(None, detail=f"the problem's examples of {function} do not fit its parameter types ({types})")
    got = await agree_on(sample, ctx, rec, function, [*shown, *new], {"seeds": len(shown), "made": len(new)})
    if got.artifacts.get("reference_failed") and (found := _stated.examples_of(sample)) is not None and found[1]:
        # a reference that does not load is no reference: the examples the problem states still are
        return await _stated.run(sample, ctx, rec, reference_failed=got.detail or "", found=found)
    return got


def written_examples(seeds: list[Args], write: Callable[[Args], str | None], language: str,
                     seed: int) -> tuple[list[str], list[str]]:
    """The examples' calls written in ``language`` (those that fit the parameter types), and up to
    ``FUZZ_INPUTS`` type-aware mutations of them, written the same way (three times as many are
    made in the typed languages, where more of them do not fit).  Ex-fuzz's inputs; ranking's too."""
    made = mutate_inputs(seeds, FUZZ_INPUTS * (3 if typed_calls(language) else 1), seed=seed)
    shown = [c for c in map(write, seeds) if c is not None]
    return shown, [c for c in map(write, made) if c is not None][:FUZZ_INPUTS]


def detail_lines(result: StrategyResult) -> list[str]:
    a = result.artifacts
    if "agreed" not in a:
        return []
    if a.get("no_reference"):
        return _stated.detail_lines(result)
    what = "printed the reference's output" if a.get("form") == "stdio" else "returned the reference's values"
    lines = [f"candidate {what} on {a['agreed']}/{a['inputs']} inputs of {a['function']} "
             f"(the problem's {a['seeds']} examples and {a['made']} mutations of them)"]
    return lines + random_lines(a) + Mismatch.lines(a.get("mismatches", []))


SPEC = register(StrategySpec(
    value="example_fuzz", paper_name="Ex-fuzz", aliases=("examples",), kind=Kind.EVIDENCE, run=run, rank=57,
    version=lambda: f"example-fuzz-12|{FUZZ_INPUTS}|runners:{RUNNERS_VERSION}|io:{IO_FUZZ}", applies=applies,
    needs_execute=True,
    joins_default=when_executing(applies),
    detail_lines=detail_lines,
    summary="the share of the problem's example inputs (and type-aware mutations of them) on which the "
            "candidate returns the reference's value (without a reference: the output the problem states for "
            "its examples); no LLM call"))
