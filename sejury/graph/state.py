"""The graph state, its reducers, the graph's input and output, and the payload a member receives.

The trace lives in the state: each member's ``StrategyResult`` carries every prompt, raw reply,
parsed score, reasons, token count and timing of its calls; ``Verdict.trace()`` flattens them.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field
from typing_extensions import TypedDict  # pydantic reads these for the graph's schemas (Python 3.11)

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
    feeds: dict[str, Strategy] = Field(default_factory=dict)  # follower -> the strategy that feeds it here
    started: float = 0.0  # perf_counter() at the supervisor, for the verdict's wall time

    def first_wave(self) -> list[Strategy]:
        """Members dispatched at once: every runnable member that no other feeds, and each
        follower's feeder first (run once, even when it is not in the team)."""
        wave: list[Strategy] = [s for s in self.runnable if s.value not in self.feeds]
        feeders = [f for f in dict.fromkeys(self.feeds.values()) if f not in wave]
        return [*feeders, *wave]

    def followers_of(self, strategy: Strategy) -> list[Strategy]:
        return [s for s in self.runnable if self.feeds.get(s.value) == strategy]


class JudgeInput(TypedDict, total=False):
    """What the graph takes: a sample and, optionally, the team for this judgment."""

    sample: Sample
    team: list[Strategy] | None


class JudgeOutput(TypedDict):
    """What the graph returns."""

    verdict: Verdict


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
    feed: StrategyResult | None  # the feeder's result (S1's for S2, S5's for S5-exec)
    calls_after: int  # model calls its followers in this plan make after it (the longest): the call queue's hint
