"""S2 rethink: validate each of S1's reasons and adjust S1's score (raise it when a criticism is
false, lower it when a praise is false, keep it otherwise).  Fed by S1 through a graph edge."""

from __future__ import annotations

from sejury import prompts
from sejury.graph.context import JudgeContext
from sejury.nodes._base import Outcome, Recorder, ask_score
from sejury.schema import Sample, Status, Strategy, StrategyResult


def applies(sample: Sample) -> str | None:
    return None


def feeder_for(sample: Sample) -> Strategy:
    """The S1 variant S2 re-checks: with the reference when there is one."""
    return Strategy.DIRECT_REF if sample.reference else Strategy.DIRECT


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    if feed is None or feed.status is not Status.SCORED or feed.score is None:
        why = feed.detail if feed is not None else "it did not run"
        return Outcome(None, detail=f"nothing to re-check: S1 ({feed.strategy.value if feed else '?'}) "
                                    f"gave no score ({why})")
    reasons = "\n".join(f"- {r}" for r in feed.reasons) or "- (no reasons were given)"
    user = prompts.render(Strategy.RETHINK, sample.task, language=sample.language, problem=sample.problem,
                          candidate=sample.candidate, reference=sample.reference or "",
                          s1_score=f"{feed.score:g}", s1_reasons=reasons)
    parsed, error = await ask_score(ctx, rec, "rethink", user)
    return Outcome(parsed, detail=error or None,
                   artifacts={"s1": feed.strategy.value, "s1_score": feed.score})
