"""The graph state, its reducers, and the payload a team member receives.

The trace lives in the state: each member's ``StrategyResult`` carries every prompt, raw reply,
parsed score, reasons, token count and timing of its calls; ``Verdict.trace()`` flattens them.
"""

from __future__ import annotations

from typing import Annotated, TypedDict

from pydantic import BaseModel, Field

from sejury.schema import Sample, Strategy, StrategyResult, Verdict


def merge_results(left: dict[str, StrategyResult] | None,
                  right: dict[str, StrategyResult] | None) -> dict[str, StrategyResult]:
    """Members write concurrently, each under its own key."""
    return {**(left or {}), **(right or {})}


class Plan(BaseModel):
    """The supervisor's decision for one sample."""

    team: list[Strategy]  # the members whose scores are merged
    runnable: list[Strategy]  # members that apply to this sample
    skipped: dict[str, str] = Field(default_factory=dict)  # member -> why it does not apply
    feeder: Strategy | None = None  # the S1 variant whose result feeds S2 (run once, reused)
    started: float = 0.0  # perf_counter() at the supervisor, for the verdict's wall time

    def first_wave(self) -> list[Strategy]:
        """Members dispatched at once; S2 follows its S1 feeder and S5-exec follows S5, each feeder
        run once even when it is not in the team."""
        followers = (Strategy.RETHINK, Strategy.TEST_PASS)
        wave: list[Strategy] = [s for s in self.runnable if s not in followers]
        if self.feeder is not None and self.feeder not in wave:
            wave.insert(0, self.feeder)
        if Strategy.TEST_PASS in self.runnable and Strategy.GENERATE_TESTS not in wave:
            wave.append(Strategy.GENERATE_TESTS)
        return wave


class JudgeState(TypedDict, total=False):
    sample: Sample
    team: list[Strategy] | None  # optional per-judgment override of the configured team
    plan: Plan
    results: Annotated[dict[str, StrategyResult], merge_results]
    verdict: Verdict


class MemberTask(TypedDict, total=False):
    """What ``Send`` hands a strategy node."""

    sample: Sample
    strategy: Strategy
    in_team: bool
    feed: StrategyResult | None  # S1's result for S2, S5's for S5-exec
