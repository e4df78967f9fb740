"""S5-diff: differential testing on S5's tests, as a juror of its own (0-100, no extra LLM call).

Every call of the problem's function in S5's tests is recorded on the reference and on the
candidate (``execution/differential.py``); the score is ``100 * agreed / inputs``, the share of
tests whose calls return the same values on both.  The model's expected values play no part, so
a test it got wrong still counts as an input and the reference supplies the answer (even when
every test S5 wrote had a wrong expected value, so S5-exec is unscored); a call that
raises on the reference gives no input.  A weak model's tests often assert little (38 % of wrong
HumanEval candidates passed every valid S5 test in one probe); comparing every returned value
catches more.  It can also reject a correct candidate on inputs outside the problem's domain, where
any answer is right: calibration weighs it against S5-exec.
"""

from __future__ import annotations

from sejury.context import JudgeContext
from sejury.execution.differential import ONLY_ERROR_PATHS, Mismatch
from sejury.execution.domain import edge_only
from sejury.execution.evidence import TestExecution, suite_weight
from sejury.execution.random_state import lines as random_lines
from sejury.schema import Sample, StrategyResult
from sejury.scoring import ParsedReply
from sejury.strategies import _io, generate_tests
from sejury.strategies.base import Kind, Outcome, Recorder, StrategySpec, register


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    if feed is None:
        return Outcome(None, detail="S5 did not run, so there are no calls to compare")
    ex = TestExecution.from_artifact(feed.artifacts.get("execution"))
    if ex is None or (ex.status != "ran" and ex.differential is None):
        why = (ex.reason if ex else "") or feed.detail or f"S5 is {feed.status.value}"
        return Outcome(None, detail=f"S5's tests did not run: {why}")
    diff = ex.differential
    if diff is None:
        return Outcome(None, detail="no call of the problem's function was recorded on the reference (a prose "
                                    "problem, a function without a return value, or no test calls it)")
    if diff.ratio is None:
        return Outcome(None, detail=diff.no_inputs(f"no call of {diff.function} returned on the reference"))
    if diff.only_error_paths() and diff.agreed == diff.inputs:
        return Outcome(None, detail=ONLY_ERROR_PATHS.format(function=diff.function))
    artifacts = {"agreement": diff.ratio, "inputs": diff.inputs, "agreed": diff.agreed,
                 "from_invalid": diff.from_invalid, "function": diff.function,
                 "mismatches": [m.model_dump() for m in diff.mismatches]}
    if diff.random_by_form or diff.random_dropped:  # values that depend on the random state
        artifacts |= {"random_by_form": diff.random_by_form, "random_dropped": diff.random_dropped}
    if diff.disputed:  # a fact for whoever reads the verdict; not a review reason (measured: mostly shared misreadings)
        artifacts["disputed"] = {"tests": diff.disputed, "shown": diff.disputed_shown[:1]}
    if edge := edge_only(ex.edge_tests, [m.test for m in diff.mismatches], diff.inputs - diff.agreed):
        artifacts["edge_only"] = edge  # every value that differs is on an empty input the problem does not show
    weight = suite_weight(ex, first_round=True)  # its calls are the first round's tests'
    if weight < 1:
        artifacts["weight"] = weight
    return Outcome(ParsedReply(score=round(100 * diff.ratio, 2)), artifacts=artifacts, weight=weight)


def detail_lines(result: StrategyResult) -> list[str]:
    a = result.artifacts
    if "agreement" not in a:
        return []
    lines = [f"candidate returned the reference's values on {a['agreed']}/{a['inputs']} tests' calls of "
             f"{a['function']} ({a['from_invalid']} of them from tests whose expectation was wrong)"]
    if "weight" in a:
        lines.append(f"its calls come from tests with mutation score {a['weight']:g}: that is its weight in the "
                     "team's mean")
    if d := a.get("disputed"):
        lines.append(f"{d['tests']} of the tests whose expectation failed on the reference hold on the candidate "
                     f"(e.g. {d['shown'][0][:120] if d['shown'] else '?'}): the model expected what the candidate "
                     "returns (a shared misreading, more often than a wrong reference)")
    return lines + random_lines(a) + Mismatch.lines(a.get("mismatches", []))


SPEC = register(StrategySpec(
    value="test_diff", paper_name="S5-diff", aliases=("diff", "differential"), kind=Kind.EVIDENCE, run=run, rank=52,
    version=lambda: "diff-9", applies=generate_tests.applies, needs_execute=True,
    joins_default=_io.model_inputs_join(generate_tests.applies), feeders=("generate_tests",),
    detail_lines=detail_lines,
    summary="the share of S5's tests whose calls return the reference's values on the candidate"))
