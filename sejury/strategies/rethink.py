"""S2 rethink: validate each of S1's reasons and adjust S1's score (raise it when a criticism is
false, lower it when a praise is false, keep it otherwise).  Fed by S1 through a graph edge: by
S1-ref when the sample has a reference, else by S1."""

from __future__ import annotations

from sejury import prompts
from sejury.context import JudgeContext
from sejury.schema import Sample, Status, StrategyResult
from sejury.strategies.base import Kind, Outcome, Recorder, StrategySpec, ask_score, register


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    if feed is None or feed.status is not Status.SCORED or feed.score is None:
        why = feed.detail if feed is not None else "it did not run"
        return Outcome(None, detail=f"nothing to re-check: S1 ({feed.strategy.value if feed else '?'}) "
                                    f"gave no score ({why})")
    reasons = "\n".join(f"- {r}" for r in feed.reasons) or "- (no reasons were given)"
    user = prompts.render("rethink", sample.task, language=sample.language, problem=sample.problem,
                          candidate=sample.candidate, reference=sample.reference or "",
                          s1_score=f"{feed.score:g}", s1_reasons=reasons)
    parsed, error = await ask_score(ctx, rec, "rethink", user)
    return Outcome(parsed, detail=error or None,
                   artifacts={"s1": feed.strategy.value, "s1_score": feed.score})


SPEC = register(StrategySpec(
    value="rethink", paper_name="S2", kind=Kind.LLM, run=run, rank=20, steps=(None,), llm_calls=1,
    feeders=("direct_ref", "direct"), default_member=True, summary="re-check S1's reasons and adjust its score"))
