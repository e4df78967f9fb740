"""The papers' RQ1 baselines, judged and reported beside the jurors but never chosen into a team:

- Vanilla: a bare "assign a correctness score" prompt, 0-100, no reasons, no reference.
- ICE-Score (Zhuo, 2024): a rubric with evaluation criteria and steps, scored 0-4 and mapped
  linearly to 0-100 here; without and with the reference.
"""

from __future__ import annotations

from functools import partial

from sejury import prompts
from sejury.graph.context import JudgeContext
from sejury.nodes._base import Outcome, Recorder, ask_score
from sejury.schema import Sample, Strategy, StrategyResult
from sejury.scoring import parse_rubric_score

ICE_LOW, ICE_HIGH = 0, 4


async def run_vanilla(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    user = prompts.render(Strategy.VANILLA, sample.task, language=sample.language, problem=sample.problem,
                          candidate=sample.candidate)
    parsed, error = await ask_score(ctx, rec, "assess", user)
    return Outcome(parsed, detail=error or None)


async def _ice(strategy: Strategy, sample: Sample, ctx: JudgeContext, rec: Recorder) -> Outcome:
    user = prompts.render(strategy, sample.task, language=sample.language, problem=sample.problem,
                          candidate=sample.candidate, reference=sample.reference)
    parsed, error = await ask_score(ctx, rec, "assess", user,
                                    parse=partial(parse_rubric_score, low=ICE_LOW, high=ICE_HIGH),
                                    repair="repair_rubric")
    raw = ICE_LOW + parsed.score / 100 * (ICE_HIGH - ICE_LOW) if parsed is not None else None
    return Outcome(parsed, detail=error or None, artifacts={"rubric_score": raw, "rubric_scale": "0-4"})


async def run_ice(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    return await _ice(Strategy.ICE_SCORE, sample, ctx, rec)


async def run_ice_ref(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    return await _ice(Strategy.ICE_SCORE_REF, sample, ctx, rec)
