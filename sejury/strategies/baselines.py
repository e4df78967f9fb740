"""The papers' RQ1 baselines, judged and reported beside the jurors but never chosen into a team:

- Vanilla: a bare "assign a correctness score" prompt, 0-100, no reasons, no reference.
- ICE-Score (Zhuo, 2024): a rubric with evaluation criteria and steps, scored 0-4 and mapped
  linearly to 0-100 here; without and with the reference.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from sejury import prompts
from sejury.context import JudgeContext
from sejury.schema import Sample, StrategyResult
from sejury.scoring import RUBRIC_PARSER_VERSION, parse_rubric_score
from sejury.strategies.base import (
    Kind,
    Outcome,
    Recorder,
    StrategyRun,
    StrategySpec,
    always,
    ask_score,
    needs_reference,
    one_prompt,
    register,
)

ICE_LOW, ICE_HIGH = 0, 4


async def _ice(strategy: str, sample: Sample, ctx: JudgeContext, rec: Recorder) -> Outcome:
    user = prompts.render(strategy, sample.task, language=sample.language, problem=sample.problem,
                          candidate=sample.candidate, reference=sample.reference)
    parsed, error = await ask_score(ctx, rec, "assess", user,
                                    parse=partial(parse_rubric_score, low=ICE_LOW, high=ICE_HIGH),
                                    repair="repair_rubric")
    raw = ICE_LOW + parsed.score / 100 * (ICE_HIGH - ICE_LOW) if parsed is not None else None
    return Outcome(parsed, detail=error or None, artifacts={"rubric_score": raw, "rubric_scale": "0-4"})


async def run_ice(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    return await _ice("ice_score", sample, ctx, rec)


async def run_ice_ref(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    return await _ice("ice_score_ref", sample, ctx, rec)


VANILLA = register(StrategySpec(
    value="vanilla", paper_name="Vanilla", kind=Kind.BASELINE, run=one_prompt("vanilla"), rank=90, steps=(None,),
    llm_calls=1,
    summary="a bare 'assign a correctness score' prompt"))


def _rubric(value: str, paper_name: str, run: StrategyRun, rank: float, summary: str,
            applies: Callable[[Sample], str | None] = always) -> StrategySpec:
    """ICE-Score: its own 0-4 parser and repair turn are part of its version."""
    return register(StrategySpec(value=value, paper_name=paper_name, kind=Kind.BASELINE, run=run, rank=rank,
                                 steps=(None,), llm_calls=1, partials=("_partials/repair_rubric.md",),
                                 parsers=(RUBRIC_PARSER_VERSION,), applies=applies, summary=summary))


ICE_SCORE = _rubric("ice_score", "ICE-Score", run_ice, 91, "ICE-Score's 0-4 rubric")
ICE_SCORE_REF = _rubric("ice_score_ref", "ICE-Score-ref", run_ice_ref, 92, "ICE-Score's rubric with the reference",
                        needs_reference())
