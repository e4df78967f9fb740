"""Exec: executability, CodeScore's second signal, as a juror of its own (0-100, no extra LLM call).

Does the candidate load, and does it run on the inputs without raising, crashing or hanging,
whatever it returns?  The inputs are the calls of the problem's function in S5's tests that return
on the reference (``execution/differential.py`` records them for S5-diff); the score is ``100 *
returned / inputs``, and 0 when the candidate does not load or compile.  It says nothing about
the values (S5-diff and S5-exec do): a candidate that returns a wrong answer still executes.  Weak
on its own; calibration weighs it with the others.
"""

from __future__ import annotations

from sejury.context import JudgeContext
from sejury.execution.differential import ONLY_ERROR_PATHS
from sejury.execution.evidence import TestExecution
from sejury.schema import Sample, StrategyResult
from sejury.scoring import ParsedReply
from sejury.strategies import generate_tests
from sejury.strategies.base import Kind, Outcome, Recorder, StrategySpec, register


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    if feed is None:
        return Outcome(None, detail="S5 did not run, so there are no inputs to run the candidate on")
    ex = TestExecution.from_artifact(feed.artifacts.get("execution"))
    if ex is None or (ex.status != "ran" and ex.differential is None):
        why = (ex.reason if ex else "") or feed.detail or f"S5 is {feed.status.value}"
        return Outcome(None, detail=f"S5's tests did not run: {why}")
    if ex.executable is False:
        load = ex.candidate.load_error if ex.candidate else ""
        why = "the candidate does not load" + (f": {load[:200]}" if load else "")
        return Outcome(ParsedReply(score=0.0), detail=why, artifacts={"loads": False, "inputs": 0, "returned": 0},
                       against=ex.against())
    diff = ex.differential
    if diff is None or not diff.inputs:
        what = "no call of the problem's function returned on the reference, so there is no input to run the " \
               "candidate on"
        return Outcome(None, detail=diff.no_inputs(what) if diff is not None else what)
    if diff.returned is None:
        return Outcome(None, detail="S5's run was recorded before executability was counted: judge again with "
                                    "--no-cache")
    if diff.only_error_paths() and diff.returned == diff.inputs:
        return Outcome(None, detail=ONLY_ERROR_PATHS.format(function=diff.function))
    artifacts = {"loads": True, "inputs": diff.inputs, "returned": diff.returned, "function": diff.function}
    return Outcome(ParsedReply(score=round(100 * diff.returned / diff.inputs, 2)), artifacts=artifacts)


def detail_lines(result: StrategyResult) -> list[str]:
    a = result.artifacts
    if "returned" not in a:
        return []
    if not a.get("loads"):
        return ["the candidate does not load or compile"]
    return [f"candidate's calls of {a['function']} returned on {a['returned']}/{a['inputs']} of S5's inputs "
            "(whatever their values)"]


SPEC = register(StrategySpec(
    value="executability", paper_name="S5-runs", aliases=("runs", "exec_runs"), kind=Kind.EVIDENCE, run=run, rank=53,
    version=lambda: "executability-4", applies=generate_tests.applies, needs_execute=True,
    feeders=("generate_tests",), detail_lines=detail_lines,
    summary="the share of S5's inputs the candidate runs on without raising, crashing or hanging (CodeScore)"))
