"""S5-fuzz: the candidate against the reference on inputs nobody wrote (no extra LLM call).

A weak model writes few tests, and a wrong candidate that passes them all is the commonest way a
judge is fooled.  S5-fuzz takes the calls of the problem's function in S5's tests as seeds and
makes up to ``FUZZ_INPUTS`` new inputs from them by EvalPlus's type-aware mutation
(``execution/fuzz.py``: an integer off by one, a list emptied or reversed, a string shortened,
...).  The reference answers them in the sandbox (an input it raises or hangs on is dropped, as
outside the problem's domain) and the score is ``100 * agreed / inputs``: the share on which the
candidate returns the reference's value.  All five languages (their literals are read in
``execution/fuzz.py``, ``js_literals.py`` and ``clike_literals.py``; Java's, C++'s and Go's new
inputs are written back by the signature's parameter types, ``typed_literals.py``).  In Python a
seed's argument may also be a numpy array or a pandas frame or series built from literals
(``np.array([[1, 2]])``, ``-np.ones((3, 2))``, ``pd.DataFrame({'a': [1, 2]})``, or a name bound to
one earlier in the test): its cells are mutated, its shape, dtype and column names kept
(``execution/array_exprs.py``, ``execution/arrays.py``).  Inputs that
are legal for the reference may still lie outside the problem's stated domain, where a correct
candidate may differ: calibration weighs it with the others.
"""

from __future__ import annotations

from sejury.context import JudgeContext
from sejury.execution.calls import (
    call_writer,
    literal_languages,
    reads_arrays,
    reads_literals,
    seed_calls,
    typed_calls,
)
from sejury.execution.differential import Mismatch, compare, record_calls, recorded_function
from sejury.execution.evidence import SuiteRun
from sejury.execution.fuzz import mutate_inputs
from sejury.execution.io_fuzz import VERSION as IO_FUZZ
from sejury.execution.languages import Suite
from sejury.execution.patching import PatchError
from sejury.execution.programs import programs
from sejury.execution.random_state import lines as random_lines
from sejury.execution.reference import load_error_line, reference_load_failure, run_reference_program, settle_random
from sejury.execution.runner import RUNNERS_VERSION, run_suite
from sejury.sandbox.libraries import missing_library, missing_note
from sejury.schema import Sample, StrategyResult, Task
from sejury.scoring import ParsedReply
from sejury.strategies import _io, generate_tests
from sejury.strategies.base import Kind, Outcome, Recorder, StrategySpec, register

FUZZ_INPUTS = 30
FUZZ_TIMEOUT = 60.0  # the whole run of the inputs; each input has the harness's 5 s


def applies(sample: Sample) -> str | None:
    if sample.task is not Task.CODE_GENERATION:
        return "input mutation is for code generation"
    return generate_tests.applies(sample)


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    if _io.is_program(sample):
        inputs = _io.inputs_of(str(feed.artifacts.get("tests") or "")) if feed is not None else []
        if not inputs:
            return Outcome(None, detail="S5 wrote no inputs, so there are no seeds")
        return await _io.fuzz(sample, ctx, rec, inputs, int(sample.content_hash()[:8], 16), with_seeds=False)
    if not reads_literals(sample.language):
        return Outcome(None, detail=f"type-aware input mutation reads the literals of "
                                    f"{', '.join(literal_languages())} only so far, not {sample.language}")
    if feed is None or not feed.artifacts.get("tests"):
        return Outcome(None, detail="S5 wrote no tests, so there are no seed inputs")
    if ctx.sandbox is None:
        return Outcome(None, detail="no sandbox configured")
    function = recorded_function(sample.problem)
    if function is None:
        return Outcome(None, detail="the problem declares no function returning a value")
    seeds = seed_calls(str(feed.artifacts["tests"]), function, sample.language, built=True)
    if not seeds:
        return Outcome(None, detail=f"no call of {function} with literal arguments in S5's tests"
                                    + (" (nor numpy or pandas values built from literals)"
                                       if reads_arrays(sample.language) else ""))
    write = call_writer(sample.problem, function, sample.language)
    if write is None:
        return Outcome(None, detail=f"the parameter types of {function}'s signature are not read")
    typed = typed_calls(sample.language)  # some new inputs may not fit the declared types: make more, keep 30
    made = mutate_inputs(seeds, FUZZ_INPUTS * (3 if typed else 1), seed=int(sample.content_hash()[:8], 16))
    calls = [c for c in map(write, made) if c is not None][:FUZZ_INPUTS]
    if not calls:
        return Outcome(None, detail=f"the arguments of {function} in S5's tests have no type with mutation rules"
                                    + (" that its declared types accept" if made else ""))
    return await agree_on(sample, ctx, rec, function, calls, {"seeds": len(seeds), "made": len(calls)})


async def agree_on(sample: Sample, ctx: JudgeContext, rec: Recorder, function: str, calls: list[str],
                   artifacts: dict[str, object]) -> Outcome:
    """The reference answers the inputs (``calls`` of ``function``, written in the sample's
    language) in the sandbox (one it raises or hangs on is dropped), the candidate runs on the same
    ones; the score is the share on which it returns the reference's value.  ``artifacts`` (what
    made the inputs) are kept in the result."""
    assert ctx.sandbox is not None
    try:
        reference, candidate, why_not = programs(sample.task.value, sample.language, sample.problem,
                                                 sample.reference or "", sample.candidate, sample.metadata)
    except PatchError as exc:
        return Outcome(None, detail=str(exc))
    units = [record_calls(c, i, function) for i, c in enumerate(calls)]
    suite = Suite("", units, tested=frozenset({function}))
    on_ref, adapted, _ = await run_reference_program(ctx.sandbox, sample.language, reference, suite,
                                                     timeout=FUZZ_TIMEOUT)
    rec.sandbox_event("answer_on_reference", SuiteRun.of(on_ref, units))
    if not on_ref.loaded:
        return Outcome(None, detail=reference_load_failure(on_ref.load_error), artifacts={"reference_failed": True})
    artifacts = {**artifacts, "function": function} | ({"reference_adapted": adapted} if adapted else {})
    if not on_ref.values and on_ref.reasons and all("compile" in r for r in on_ref.reasons):
        # our writing of the calls, not the candidate: say so and leave the juror unscored
        return Outcome(None, detail=f"the {len(calls)} calls written for the inputs do not compile against the "
                                    f"reference (the harness's failure, not the candidate's): {calls[0][:120]}",
                       artifacts=artifacts)
    if candidate is None:
        return Outcome(ParsedReply(score=0.0), detail=why_not, artifacts={**artifacts, "inputs": 0, "agreed": 0})
    on_cand = await run_suite(ctx.sandbox, sample.language, candidate, suite, timeout=FUZZ_TIMEOUT)
    rec.sandbox_event("run_candidate", SuiteRun.of(on_cand, units))
    if not on_cand.loaded and (module := missing_library(on_cand.load_error)) is not None:
        return Outcome(None, detail=missing_note(module), artifacts=artifacts)
    settled, again = await settle_random(ctx.sandbox, sample.language, reference, suite, on_ref.values,
                                         timeout=FUZZ_TIMEOUT)  # which of its values depend on the random state
    if again is not None:
        rec.sandbox_event("answer_on_reference_from_another_random_state", SuiteRun.of(again, units))
    diff = compare(function, units, settled.values, on_cand.values, set(range(len(units))),
                   dict(enumerate(on_cand.reasons)), random=settled)
    artifacts |= {"inputs": diff.inputs, "agreed": diff.agreed, "loads": on_cand.loaded,
                  "mismatches": [m.model_dump() for m in diff.mismatches]} | settled.artifacts()
    if on_cand.tampering:
        artifacts["tampering"] = on_cand.tampering
    if diff.ratio is None:
        why = (f"the reference's values depend on the random state, even in their form, on every input it "
               f"answered ({settled.dropped})" if settled.dropped and not settled.values else
               f"the reference raised or hung on every one of the {len(calls)} inputs")
        return Outcome(None, detail=diff.no_inputs(why), artifacts=artifacts | {"same_form": diff.random_same_form})
    against = ("tampering suspected: " + "; ".join(on_cand.tampering) if on_cand.tampering else
               None if on_cand.loaded else "the candidate does not load or compile (the reference does): "
               + load_error_line(on_cand.load_error)[:200])
    return Outcome(ParsedReply(score=round(100 * diff.ratio, 2)), artifacts=artifacts, against=against)


def detail_lines(result: StrategyResult) -> list[str]:
    a = result.artifacts
    if "agreed" not in a:
        return []
    lines = [f"candidate returned the reference's values on {a['agreed']}/{a['inputs']} new inputs of "
             f"{a['function']} (mutated from {a['seeds']} of S5's calls; {a['made']} made)"]
    return lines + random_lines(a) + Mismatch.lines(a.get("mismatches", []))


SPEC = register(StrategySpec(
    value="test_fuzz", paper_name="S5-fuzz", aliases=("fuzz",), kind=Kind.EVIDENCE, run=run, rank=54,
    version=lambda: f"fuzz-12|{FUZZ_INPUTS}|runners:{RUNNERS_VERSION}|io:{IO_FUZZ}", applies=applies,
    needs_execute=True,
    feeders=("generate_tests",),
    detail_lines=detail_lines,
    summary="the share of new inputs (S5's calls, mutated by type) on which the candidate returns the "
            "reference's value"))
