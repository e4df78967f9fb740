"""The jurors: one module per strategy, and the supervisor.  ``REGISTRY`` maps each strategy to
its run function and its applicability rule."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sejury import prompts
from sejury.nodes import baselines, direct, equivalence, reference, rethink, similarity, test_pass, tests
from sejury.nodes._base import StrategyRun
from sejury.schema import Sample, Strategy


@dataclass(frozen=True)
class StrategySpec:
    run: StrategyRun
    applies: Callable[[Sample], str | None]  # None if it applies, else why not
    llm_calls: int  # calls per sample when it runs (for cost estimates)
    version: Callable[[], str]  # part of the cache key: prompt digest, or the metric's library version


def _v(strategy: Strategy) -> Callable[[], str]:
    return lambda: prompts.prompt_version(strategy)


REGISTRY: dict[Strategy, StrategySpec] = {
    Strategy.DIRECT: StrategySpec(direct.run, direct.applies, 1, _v(Strategy.DIRECT)),
    Strategy.DIRECT_REF: StrategySpec(direct.run_ref, direct.applies_ref, 1, _v(Strategy.DIRECT_REF)),
    Strategy.RETHINK: StrategySpec(rethink.run, rethink.applies, 1, _v(Strategy.RETHINK)),
    Strategy.EQUIVALENCE: StrategySpec(equivalence.run, equivalence.applies, 1, _v(Strategy.EQUIVALENCE)),
    Strategy.REFERENCE_ANALYSIS: StrategySpec(reference.run, reference.applies, 2, _v(Strategy.REFERENCE_ANALYSIS)),
    Strategy.GENERATE_TESTS: StrategySpec(tests.run, tests.applies, 2, _v(Strategy.GENERATE_TESTS)),
    Strategy.TEST_PASS: StrategySpec(test_pass.run, tests.applies, 0, lambda: "exec-1"),
    Strategy.BLEU: StrategySpec(similarity.run_bleu, similarity.applies, 0, lambda: similarity.VERSION),
    Strategy.CHRF: StrategySpec(similarity.run_chrf, similarity.applies, 0, lambda: similarity.VERSION),
    Strategy.ROUGE_L: StrategySpec(similarity.run_rouge_l, similarity.applies, 0, lambda: similarity.ROUGE_VERSION),
    Strategy.CODEBLEU: StrategySpec(similarity.run_codebleu, similarity.applies_codebleu, 0,
                                    lambda: similarity.CODEBLEU_VERSION),
    Strategy.METEOR: StrategySpec(similarity.run_meteor, similarity.applies_meteor, 0,
                                  lambda: similarity.meteor_version()),
    Strategy.VANILLA: StrategySpec(baselines.run_vanilla, direct.applies, 1, _v(Strategy.VANILLA)),
    Strategy.ICE_SCORE: StrategySpec(baselines.run_ice, direct.applies, 1, _v(Strategy.ICE_SCORE)),
    Strategy.ICE_SCORE_REF: StrategySpec(baselines.run_ice_ref, direct.applies_ref, 1,
                                         _v(Strategy.ICE_SCORE_REF)),
}

__all__ = ["REGISTRY", "StrategySpec"]
