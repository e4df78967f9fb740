"""The supervisor: picks the team for a sample, fans it out, routes each feeder's result to its
followers, and merges the members' scores.  Everything strategy-specific is read from the specs."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Send
from pydantic import ValidationError

from sejury.context import JudgeContext
from sejury.errors import InputError, SejuryError
from sejury.graph.state import JudgeState, MemberTask, Plan
from sejury.llm import current_repeat
from sejury.merge import stamp
from sejury.schema import (
    Sample,
    Spread,
    Status,
    Strategy,
    StrategyResult,
    TeamFile,
    TraceEvent,
    Verdict,
    parse_strategy,
)
from sejury.strategies import all_specs, prompts_version, spec
from sejury.traces.store import new_judgment_id

MERGE = "merge"
log = logging.getLogger(__name__)


def context_of(runtime: Runtime[JudgeContext], default: JudgeContext | None) -> JudgeContext:
    ctx = runtime.context or default
    if ctx is None:
        raise SejuryError("no judge context: pass context= to graph.ainvoke or build_graph")
    return ctx


def resolve_team(sample: Sample, override: list[Strategy] | None,
                 configured: TeamFile | list[Strategy] | None, *, execute: bool = False) -> list[Strategy]:
    """Per-call team, else the configured team (a list or a team file), else the default team."""
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
    # the SE-Jury team, plus jurors that join it for this sample (the sample's own tests, when
    # executing); metric jurors, the other evidence jurors and baselines join when asked
    return [s.strategy for s in all_specs()
            if s.default_member or (s.joins_default is not None and s.joins_default(sample, execute))]


def plan_for(sample: Sample, team: list[Strategy], *, execute: bool = False,
             ) -> tuple[Plan, dict[str, StrategyResult]]:
    skipped: dict[str, str] = {}
    for s in team:
        why = spec(s).skip_reason(sample, execute=execute)
        if why is not None:
            skipped[s.value] = why
    runnable = [s for s in team if s.value not in skipped]
    feeds = {s.value: f for s in runnable if (f := spec(s).feeder_for(sample)) is not None}
    plan = Plan(team=team, runnable=runnable, skipped=skipped, feeds=feeds, started=time.perf_counter())
    results = {
        name: StrategyResult(strategy=Strategy(name), status=Status.SKIPPED, detail=why,
                             trace=[TraceEvent(kind="skip", strategy=name, error=why)])
        for name, why in skipped.items()
    }
    return plan, results


def graph_input(state: JudgeState) -> tuple[Sample, list[Strategy] | None]:
    """The graph's input as models: over the LangGraph server (or any JSON caller) the sample
    and the team arrive as plain JSON; bad input is an ``InputError`` naming the field."""
    raw, team = state.get("sample"), state.get("team")
    if raw is None:
        raise InputError("the graph's input needs a sample", field="sample")
    try:
        sample = raw if isinstance(raw, Sample) else Sample.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in ("sample", *err["loc"]))
        raise InputError(err["msg"], field=where) from None
    members = [t if isinstance(t, Strategy) else parse_strategy(str(t)) for t in team] if team else None
    return sample, members


def make_supervisor(default: JudgeContext | None) -> Any:
    async def supervisor(state: JudgeState, runtime: Runtime[JudgeContext]) -> dict[str, Any]:
        ctx = context_of(runtime, default)
        sample, team = graph_input(state)
        plan, skipped = plan_for(sample, resolve_team(sample, team, ctx.team, execute=ctx.execute),
                                 execute=ctx.execute)
        return {"sample": sample, "plan": plan, "results": skipped}

    return supervisor


def member_task(state: JudgeState, s: Strategy, feed: StrategyResult | None = None) -> MemberTask:
    """What member ``s`` is sent: the sample, its place in the team, its feeder's result, and how many
    model calls its followers make after it (``sejury.llm.calls_to_come``)."""
    plan = state["plan"]
    task = MemberTask(sample=state["sample"], strategy=s, in_team=s in plan.team,
                      calls_after=max((spec(f).llm_calls for f in plan.followers_of(s)), default=0))
    if feed is not None:
        task["feed"] = feed
    return task


async def fan_out(state: JudgeState) -> list[Send] | str:
    """Send every member of the first wave at once; followers wait for their feeder (``follow``).
    (The routers are coroutines only so that LangGraph runs them on the loop, not in a thread.)"""
    sends = [Send(s.value, member_task(state, s)) for s in state["plan"].first_wave()]
    return sends or MERGE


def follow(feeder: Strategy) -> Any:
    """The router after ``feeder``'s node: to each follower it feeds in this plan, else to the merge."""

    async def route(state: JudgeState) -> list[Send] | str:
        plan = state["plan"]
        followers = plan.followers_of(feeder)
        if not followers:
            return MERGE
        feed = state["results"][feeder.value]
        return [Send(s.value, member_task(state, s, feed)) for s in followers]

    route.__name__ = f"after_{feeder.value}"
    return route


def make_merge(default: JudgeContext | None) -> Any:
    async def merge(state: JudgeState, runtime: Runtime[JudgeContext]) -> dict[str, Any]:
        ctx = context_of(runtime, default)
        plan, results = state["plan"], state.get("results", {})
        if any(s.value not in results for s in plan.runnable):
            return {}  # LangGraph ran this deferred node early, while a follower still runs (#6005)
        verdict = merge_verdict(state, ctx)
        if ctx.traces is not None or (ctx.cache is not None and ctx.cache.pending):
            await asyncio.to_thread(persist, ctx, state["sample"], verdict)  # off the event loop
        return {"verdict": verdict}

    return merge


def persist(ctx: JudgeContext, sample: Sample, verdict: Verdict) -> None:
    """Before a verdict leaves the graph: its members' results committed to the cache (their writes
    are queued on its writer thread), and the judgment's full trace stored under its id (`sejury
    trace ID`); a broken trace store never costs the verdict."""
    if ctx.cache is not None:
        ctx.cache.flush()
    if ctx.traces is not None:
        try:
            ctx.traces.put(sample, verdict, config=ctx.settings())
        except (SejuryError, sqlite3.Error, ValueError) as exc:
            log.warning("the trace of %s was not stored: %s", verdict.judgment_id, exc)


def merge_verdict(state: JudgeState, ctx: JudgeContext) -> Verdict:
    """The team's members merged by the judge's rule (``sejury.merge``: evidence first by default,
    or the mean) at its pass mark, with ``passed`` and ``needs_review`` (``sejury.review``); a
    sample with no scored member is unscored, never 0."""
    sample, plan, results = state["sample"], state["plan"], state.get("results", {})
    members = [results[s.value] for s in plan.team if s.value in results]
    scores = [r.score for r in members if r.status is Status.SCORED and r.score is not None]
    fresh = [r for r in results.values() if not r.cached]
    verdict = Verdict(
        sample_id=sample.id, judgment_id=new_judgment_id(), task=sample.task, status="unscored", score=None,
        scale=ctx.scale, team=plan.team,
        strategies={s.value: results[s.value] for s in Strategy if s.value in results},
        unscored_members=[r.strategy.value for r in members if r.status in (Status.UNSCORED, Status.FAILED)],
        skipped_members=[r.strategy.value for r in members if r.status is Status.SKIPPED],
        spread=Spread.of(scores),
        llm_calls=sum(r.llm_calls for r in fresh),
        prompt_tokens=sum(r.prompt_tokens for r in fresh),
        completion_tokens=sum(r.completion_tokens for r in fresh),
        cached_prompt_tokens=sum(r.cached_prompt_tokens for r in fresh),
        seconds=round(time.perf_counter() - plan.started, 3),
        model=ctx.llm.name, prompt_version=prompts_version(),
        jury_models={n: c.name for n, c in ctx.models.items()
                     if any(spec(s.value).model == n for s in plan.runnable)}, metadata=sample.metadata,
        problem_digest=sample.problem_digest(), repeat=current_repeat(),
    )
    return stamp(verdict, rule=ctx.merge, pass_mark=ctx.pass_mark, evidence_pass=ctx.evidence_pass)
