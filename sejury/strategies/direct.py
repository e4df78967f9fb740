"""S1 direct assess: one call asks for reasons and a 0-100 score; without and with the reference."""

from __future__ import annotations

from sejury.strategies.base import Kind, StrategySpec, needs_reference, one_prompt, register

DIRECT = register(StrategySpec(
    value="direct", paper_name="S1", aliases=("s1",), kind=Kind.LLM, run=one_prompt("direct"), rank=10,
    steps=(None,), llm_calls=1, anchor=True, default_member=True, summary="direct assess: reasons, then a 0-100 score"))
DIRECT_REF = register(StrategySpec(
    value="direct_ref", paper_name="S1-ref", aliases=("s1r", "s1_ref"), kind=Kind.LLM,
    run=one_prompt("direct_ref", reference=True), rank=11, steps=(None,), llm_calls=1, applies=needs_reference(),
    anchor=True, default_member=True, summary="direct assess with the reference"))
