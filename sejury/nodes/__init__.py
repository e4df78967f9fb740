"""The jurors: one module per strategy, and the supervisor.  ``REGISTRY`` maps each strategy to
its run function and its applicability rule."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sejury.nodes import direct, equivalence, reference, rethink, tests
from sejury.nodes._base import StrategyRun
from sejury.schema import Sample, Strategy


@dataclass(frozen=True)
class StrategySpec:
    run: StrategyRun
    applies: Callable[[Sample], str | None]  # None if it applies, else why not
    llm_calls: int  # calls per sample when it runs (for cost estimates)


REGISTRY: dict[Strategy, StrategySpec] = {
    Strategy.DIRECT: StrategySpec(direct.run, direct.applies, 1),
    Strategy.DIRECT_REF: StrategySpec(direct.run_ref, direct.applies_ref, 1),
    Strategy.RETHINK: StrategySpec(rethink.run, rethink.applies, 1),
    Strategy.EQUIVALENCE: StrategySpec(equivalence.run, equivalence.applies, 1),
    Strategy.REFERENCE_ANALYSIS: StrategySpec(reference.run, reference.applies, 2),
    Strategy.GENERATE_TESTS: StrategySpec(tests.run, tests.applies, 2),
}

__all__ = ["REGISTRY", "StrategySpec"]
