"""S3 equivalence: is the candidate semantically equivalent to the reference?"""

from __future__ import annotations

from sejury.strategies.base import Kind, StrategySpec, needs_reference, one_prompt, register

SPEC = register(StrategySpec(
    value="equivalence", paper_name="S3", kind=Kind.LLM, run=one_prompt("equivalence", reference=True), rank=30,
    steps=(None,), llm_calls=1, applies=needs_reference(), default_member=True,
    summary="is the candidate equivalent to the reference?"))
