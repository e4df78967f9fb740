"""The judge as a LangChain ``Runnable``: a ``Sample`` in, a ``Verdict`` out.

``ainvoke``/``abatch`` judge with ``Judge.ajudge``.  ``astream`` runs the graph itself and yields a
``JudgeEvent`` per juror as its result lands (the graph's node updates; skipped members come first,
with the supervisor's plan), then one ``verdict`` event with the final verdict.

Only the team can be chosen per call (``config={"configurable": {"team": ["S1", "S3"]}}``), and
only when the server allows it; the model, the sandbox and the cache are the server's.

Everything runs on the caller's event loop: the server's one loop, where the model client lives.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.utils import ConfigurableFieldSpec
from pydantic import BaseModel, Field

from sejury.api import as_sample
from sejury.graph.supervisor import MERGE
from sejury.schema import Sample, Strategy, StrategyResult, Verdict, parse_strategy

if TYPE_CHECKING:
    from sejury.api import Judge

__all__ = ["JudgeEvent", "JudgeRunnable", "team_of"]

TEAM_KEY = "team"


class JudgeEvent(BaseModel):
    """One chunk of ``/judge/stream``: a juror's result as it lands, or the final verdict."""

    event: Literal["juror", "verdict"]
    strategy: str | None = Field(None, description="the juror (for event=juror)")
    result: StrategyResult | None = Field(None, description="the juror's result (for event=juror)")
    verdict: Verdict | None = Field(None, description="the judgment (for event=verdict): the last event")


def team_of(config: RunnableConfig | None) -> list[Strategy] | None:
    """The team a call asked for (``configurable.team``: strategy names only, never a file)."""
    raw = ((config or {}).get("configurable") or {}).get(TEAM_KEY)
    if raw is None:
        return None
    names = raw.split(",") if isinstance(raw, str) else list(raw)
    return [n if isinstance(n, Strategy) else parse_strategy(str(n).strip()) for n in names if str(n).strip()] or None


class JudgeRunnable(Runnable[Sample | dict[str, Any], Verdict | JudgeEvent]):
    """``Runnable[Sample, Verdict]`` over one ``Judge``; its stream is ``JudgeEvent``s."""

    def __init__(self, judge: Judge, *, allow_team: bool = False) -> None:
        self.judge = judge
        self.allow_team = allow_team

    # --- the types LangServe publishes: /input_schema is Sample, /output_schema is Verdict
    @property
    def InputType(self) -> type[Sample]:
        return Sample

    @property
    def OutputType(self) -> type[Verdict]:
        return Verdict

    def get_input_schema(self, config: RunnableConfig | None = None) -> type[BaseModel]:
        return Sample

    def get_output_schema(self, config: RunnableConfig | None = None) -> type[BaseModel]:
        return Verdict

    @property
    def config_specs(self) -> list[ConfigurableFieldSpec]:
        if not self.allow_team:
            return []
        return [ConfigurableFieldSpec(
            id=TEAM_KEY, annotation=list[str] | None, name="team", default=None,
            description="strategies by name or paper name, e.g. [\"S1\", \"S3\"]; default: the server's team")]

    def _team(self, config: RunnableConfig | None) -> list[Strategy] | None:
        return team_of(config) if self.allow_team else None

    # --- judging
    def invoke(self, input: Sample | dict[str, Any], config: RunnableConfig | None = None,
               **kwargs: Any) -> Verdict:
        """Blocking, on the judge's own background loop: for in-process use, never the server."""
        return self.judge.judge(as_sample(input), team=self._team(config))

    async def ainvoke(self, input: Sample | dict[str, Any], config: RunnableConfig | None = None,
                      **kwargs: Any) -> Verdict:
        return await self.judge.ajudge(as_sample(input), team=self._team(config))

    async def astream(self, input: Sample | dict[str, Any], config: RunnableConfig | None = None,
                      **kwargs: Any) -> AsyncIterator[Verdict | JudgeEvent]:
        sample = as_sample(input)
        state: dict[str, Any] = {"sample": sample}
        team = self._team(config)
        if team:
            state["team"] = team
        verdict: Verdict | None = None
        async for update in self.judge.graph.astream(state, stream_mode="updates"):
            for node, out in update.items():
                if node == MERGE:
                    # the merge's verdict (an early run of the deferred merge returns nothing)
                    if isinstance(out, dict) and isinstance(out.get("verdict"), Verdict):
                        verdict = out["verdict"]
                    continue
                for name, result in _results(out):
                    yield JudgeEvent(event="juror", strategy=name, result=result)
        if verdict is None:
            raise RuntimeError("the judge graph ended without a verdict")
        yield JudgeEvent(event="verdict", verdict=verdict)  # its id and stored trace: the merge node's


def _results(update: Any) -> Sequence[tuple[str, StrategyResult]]:
    if not isinstance(update, dict):
        return []
    results = update.get("results") or {}
    return [(name, r) for name, r in results.items() if isinstance(r, StrategyResult)]
