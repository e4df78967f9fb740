"""S4 analyze the reference, then assess: the first call lists the properties that make the
reference correct; the second checks whether the candidate preserves each."""

from __future__ import annotations

from sejury import prompts
from sejury.context import JudgeContext
from sejury.schema import Sample, StrategyResult
from sejury.scoring import parse_bullets
from sejury.strategies.base import (
    Kind,
    Outcome,
    Recorder,
    StrategySpec,
    ask_score,
    ask_text,
    needs_reference,
    register,
)

MAX_PROPERTIES = 8


def read_properties(text: str, cut_off: bool) -> list[str]:
    props = parse_bullets(text)
    if cut_off and props:
        props = props[:-1]  # the last line may be cut mid-sentence
    return props[:MAX_PROPERTIES]


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    analysis = await ask_text(ctx, rec, "analyze", prompts.render(
        "reference_analysis", sample.task, "analyze", language=sample.language, problem=sample.problem,
        reference=sample.reference))
    props = read_properties(analysis.text, analysis.finish_reason == "length")
    if not props:
        return Outcome(None, detail="the analysis listed no properties of the reference",
                       artifacts={"analysis": analysis.text})
    user = prompts.render("reference_analysis", sample.task, "assess", language=sample.language,
                          problem=sample.problem, reference=sample.reference, candidate=sample.candidate,
                          properties="\n".join(f"- {p}" for p in props))
    parsed, error = await ask_score(ctx, rec, "assess", user)
    return Outcome(parsed, detail=error or None, artifacts={"properties": props})


SPEC = register(StrategySpec(
    value="reference_analysis", paper_name="S4", kind=Kind.LLM, run=run, rank=40, steps=("analyze", "assess"),
    llm_calls=2, applies=needs_reference(), default_member=True,
    summary="list what makes the reference correct, then check the candidate keeps it"))
