"""S3 equivalence: is the candidate semantically equivalent to the reference?"""

from __future__ import annotations

from sejury import prompts
from sejury.graph.context import JudgeContext
from sejury.nodes._base import Outcome, Recorder, ask_score
from sejury.schema import Sample, Strategy, StrategyResult


def applies(sample: Sample) -> str | None:
    return None if sample.reference else "no reference in the sample"


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    user = prompts.render(Strategy.EQUIVALENCE, sample.task, language=sample.language,
                          problem=sample.problem, candidate=sample.candidate, reference=sample.reference)
    parsed, error = await ask_score(ctx, rec, "assess", user)
    return Outcome(parsed, detail=error or None)
