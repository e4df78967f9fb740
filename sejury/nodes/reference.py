"""S4 analyze the reference, then assess: the first call lists the properties that make the
reference correct; the second checks whether the candidate preserves each."""

from __future__ import annotations

from sejury import prompts
from sejury.graph.context import JudgeContext
from sejury.nodes._base import Outcome, Recorder, ask_score, ask_text
from sejury.schema import Sample, Strategy, StrategyResult
from sejury.scoring import parse_bullets

MAX_PROPERTIES = 8


def applies(sample: Sample) -> str | None:
    return None if sample.reference else "no reference in the sample"


def read_properties(text: str, cut_off: bool) -> list[str]:
    props = parse_bullets(text)
    if cut_off and props:
        props = props[:-1]  # the last line may be cut mid-sentence
    return props[:MAX_PROPERTIES]


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    S = Strategy.REFERENCE_ANALYSIS
    analysis = await ask_text(ctx, rec, "analyze", prompts.render(
        S, sample.task, "analyze", language=sample.language, problem=sample.problem,
        reference=sample.reference))
    props = read_properties(analysis.text, analysis.finish_reason == "length")
    if not props:
        return Outcome(None, detail="the analysis listed no properties of the reference",
                       artifacts={"analysis": analysis.text})
    user = prompts.render(S, sample.task, "assess", language=sample.language, problem=sample.problem,
                          candidate=sample.candidate, properties="\n".join(f"- {p}" for p in props))
    parsed, error = await ask_score(ctx, rec, "assess", user)
    return Outcome(parsed, detail=error or None, artifacts={"properties": props})
