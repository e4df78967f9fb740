"""The supervisor: picks the team for a sample, fans it out, and merges the members' scores."""

from __future__ import annotations

import statistics
import time
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Send

from sejury import prompts
from sejury.errors import InputError, SejuryError
from sejury.graph.context import JudgeContext
from sejury.graph.state import JudgeState, MemberTask, Plan
from sejury.nodes import REGISTRY
from sejury.nodes.rethink import feeder_for
from sejury.nodes.test_pass import NEEDS_EXECUTE
from sejury.schema import (
    Sample,
    Spread,
    Status,
    Strategy,
    StrategyResult,
    TeamFile,
    TraceEvent,
    Verdict,
)

MERGE = "merge"


def _context(runtime: Runtime[JudgeContext], default: JudgeContext | None) -> JudgeContext:
    ctx = runtime.context or default
    if ctx is None:
        raise SejuryError("no judge context: pass context= to graph.ainvoke or build_graph")
    return ctx


def resolve_team(sample: Sample, override: list[Strategy] | None,
                 configured: TeamFile | list[Strategy] | None) -> list[Strategy]:
    """Per-call team, else the configured team (a list or a team file), else every strategy."""
    if override:
        return list(override)
    if isinstance(configured, TeamFile):
        if configured.task is not None and configured.task is not sample.task:
            raise InputError(f"the team file was calibrated for {configured.task.value}, but sample "
                             f"{sample.id!r} is {sample.task.value}: pass a team for this task",
                             field="task")
        return list(configured.strategies)
    if configured:
        return list(configured)
    # the SE-Jury team; metric jurors and baselines join when asked
    return [s for s in Strategy if s.is_llm and not s.is_baseline]


def plan_for(sample: Sample, team: list[Strategy], *, execute: bool = False,
             ) -> tuple[Plan, dict[str, StrategyResult]]:
    skipped: dict[str, str] = {}
    for s in team:
        why = REGISTRY[s].applies(sample)
        if why is None and s is Strategy.TEST_PASS and not execute:
            why = NEEDS_EXECUTE
        if why is not None:
            skipped[s.value] = why
    runnable = [s for s in team if s.value not in skipped]
    feeder = feeder_for(sample) if Strategy.RETHINK in runnable else None
    plan = Plan(team=team, runnable=runnable, skipped=skipped, feeder=feeder, started=time.perf_counter())
    results = {
        name: StrategyResult(strategy=Strategy(name), status=Status.SKIPPED, detail=why,
                             trace=[TraceEvent(kind="skip", strategy=name, error=why)])
        for name, why in skipped.items()
    }
    return plan, results


def make_supervisor(default: JudgeContext | None) -> Any:
    async def supervisor(state: JudgeState, runtime: Runtime[JudgeContext]) -> dict[str, Any]:
        ctx = _context(runtime, default)
        sample = state["sample"]
        plan, skipped = plan_for(sample, resolve_team(sample, state.get("team"), ctx.team), execute=ctx.execute)
        return {"plan": plan, "results": skipped}

    return supervisor


def fan_out(state: JudgeState) -> list[Send] | str:
    """Send every member of the first wave at once; S2 follows its feeder (``after_s1``)."""
    plan = state["plan"]
    sends = [Send(s.value, MemberTask(sample=state["sample"], strategy=s, in_team=s in plan.team))
             for s in plan.first_wave()]
    return sends or MERGE


def after_s1(variant: Strategy) -> Any:
    """Route an S1 node: to S2 when this variant is S2's feeder, else to the merge."""

    def route(state: JudgeState) -> list[Send] | str:
        plan = state["plan"]
        if plan.feeder is variant and Strategy.RETHINK in plan.runnable:
            feed = state["results"][variant.value]
            return [Send(Strategy.RETHINK.value, MemberTask(
                sample=state["sample"], strategy=Strategy.RETHINK, in_team=True, feed=feed))]
        return MERGE

    route.__name__ = f"after_{variant.value}"
    return route


def after_s5(state: JudgeState) -> list[Send] | str:
    """Route S5: to S5-exec (its pass ratio) when that is planned, else to the merge."""
    plan = state["plan"]
    if Strategy.TEST_PASS in plan.runnable:
        feed = state["results"][Strategy.GENERATE_TESTS.value]
        return [Send(Strategy.TEST_PASS.value, MemberTask(
            sample=state["sample"], strategy=Strategy.TEST_PASS, in_team=Strategy.TEST_PASS in plan.team, feed=feed))]
    return MERGE


def make_merge(default: JudgeContext | None) -> Any:
    async def merge(state: JudgeState, runtime: Runtime[JudgeContext]) -> dict[str, Any]:
        ctx = _context(runtime, default)
        return {"verdict": merge_verdict(state, ctx)}

    return merge


def merge_verdict(state: JudgeState, ctx: JudgeContext) -> Verdict:
    """Mean of the scored team members; a sample with no scored member is unscored, never 0."""
    sample, plan, results = state["sample"], state["plan"], state.get("results", {})
    members = [results[s.value] for s in plan.team if s.value in results]
    scores = [r.score for r in members if r.status is Status.SCORED and r.score is not None]
    score = statistics.fmean(scores) if scores else None
    fresh = [r for r in results.values() if not r.cached]
    return Verdict(
        sample_id=sample.id, task=sample.task,
        status="scored" if score is not None else "unscored",
        score=round(score, 2) if score is not None else None,
        scale=ctx.scale,
        scaled_score=round(ctx.scale.map(score), 3) if ctx.scale and score is not None else None,
        team=plan.team,
        strategies={s.value: results[s.value] for s in Strategy if s.value in results},
        unscored_members=[r.strategy.value for r in members if r.status in (Status.UNSCORED, Status.FAILED)],
        skipped_members=[r.strategy.value for r in members if r.status is Status.SKIPPED],
        spread=Spread.of(scores),
        llm_calls=sum(r.llm_calls for r in fresh),
        prompt_tokens=sum(r.prompt_tokens for r in fresh),
        completion_tokens=sum(r.completion_tokens for r in fresh),
        seconds=round(time.perf_counter() - plan.started, 3),
        model=ctx.llm.name, prompt_version=prompts.prompts_version(), metadata=sample.metadata,
    )
