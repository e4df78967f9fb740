"""S5-exec: the pass ratio of S5's own tests, as a juror of its own (0-100, no extra LLM call).

S5 writes tests from the problem and the reference; with ``--execute`` they run on the reference
(wrong ones are discarded) and then on the candidate.  This juror is ``100 * passed / valid``: the
evidence alone, without S5's LLM prediction, so calibration can weigh it on its own.  It reads S5's
result through a graph edge (S5 runs as its feeder even when S5 itself is not in the team).
"""

from __future__ import annotations

from typing import Any

from sejury.graph.context import JudgeContext
from sejury.nodes._base import Outcome, Recorder
from sejury.schema import Sample, StrategyResult
from sejury.scoring import ParsedReply

NEEDS_EXECUTE = "the pass ratio needs the sandbox: judge with --execute (execute=True)"


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    if feed is None:
        return Outcome(None, detail="S5 did not run, so there are no tests to count")
    ex: Any = feed.artifacts.get("execution")
    if not isinstance(ex, dict):
        why = ex if isinstance(ex, str) else feed.detail or f"S5 is {feed.status.value}"
        return Outcome(None, detail=f"S5's tests did not run: {why}")
    if ex.get("status") != "ran" or ex.get("pass_ratio") is None:
        return Outcome(None, detail=f"S5's tests did not run: {ex.get('reason') or 'no pass ratio'}")
    ratio = float(ex["pass_ratio"])
    candidate = ex.get("candidate") or {}
    artifacts = {"pass_ratio": ratio, "generated": ex.get("generated"), "valid": ex.get("valid"),
                 "invalid_on_reference": ex.get("invalid_on_reference"), "passed": candidate.get("passed"),
                 "executable": ex.get("executable")}
    return Outcome(ParsedReply(score=round(100 * ratio, 2)), artifacts=artifacts)
