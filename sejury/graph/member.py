"""A strategy as a graph node: the cache, retries of transient model errors, and the
``StrategyResult``.  The strategy itself is its spec's ``run``; this wrapper is the same for all."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from typing import Any

from langgraph.runtime import Runtime

from sejury.cache import cache_key
from sejury.context import JudgeContext
from sejury.errors import ModelError, SejuryError
from sejury.graph.state import MemberTask
from sejury.llm import calls_to_come, current_repeat
from sejury.schema import Sample, Status, StrategyResult, TraceEvent
from sejury.strategies import StrategySpec, spec
from sejury.strategies.base import Outcome, Recorder


def feed_digest(feed: StrategyResult | None) -> str:
    """What a follower's cache key knows of its feeder's result."""
    if feed is None:
        return ""
    raw = f"{feed.status}|{feed.score}|{feed.reasons}"
    reads = spec(feed.strategy).feed_digest
    if reads is not None:
        raw += f"|{reads(feed)}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def member_key(s: StrategySpec, sample: Sample, ctx: JudgeContext, feed: StrategyResult | None) -> str:
    """The cache key of ``s`` judging ``sample`` (fed ``feed``) in ``ctx``: strategy, its version, the
    model, the sample's content, what it reads of its feeder, the run settings that change it (with
    execution on, the sandbox image's content too), and the repeat (``sejury batch --repeats``).
    The member node and a dry run (``sejury.estimate``) both look results up under this key."""
    extra = feed_digest(feed) + (s.cache_extra(ctx) if s.cache_extra else "")
    if ctx.execute and ctx.sandbox is not None:
        if ctx.sandbox.profile != "base":
            extra += f"|sandbox:{ctx.sandbox.profile}"
        if ctx.sandbox.image_id:  # the image's content: one rebuilt with other libraries judges again
            extra += f"|image:{ctx.sandbox.image_id}"
    if repeat := current_repeat():  # repeat 0 is the ordinary judgment, and shares its key
        extra += f"|repeat={repeat}"
    return cache_key(strategy=s.value, prompt_version=s.version_id(), model=ctx.llm.name,
                     sample_hash=sample.content_hash(), extra=extra)


def member_node(s: StrategySpec, *, max_attempts: int, default_context: JudgeContext | None,
                ) -> Callable[..., Awaitable[dict[str, Any]]]:
    """Wrap a strategy as a graph node: cache, retries of transient model errors (the node's
    RetryPolicy re-runs it; on the last attempt the member is recorded as failed instead, so one
    broken member never sinks the verdict), and the StrategyResult."""
    strategy = s.strategy

    async def node(task: MemberTask, runtime: Runtime[JudgeContext]) -> dict[str, Any]:
        run_ctx = runtime.context or default_context
        if run_ctx is None:
            raise SejuryError("no judge context: pass context= to graph.ainvoke or build_graph")
        sample, in_team, feed = task["sample"], task.get("in_team", True), task.get("feed")
        # a juror of a multi-model jury asks its own model; code runs in the image its libraries need
        ctx = run_ctx.for_model(s.model).for_sample(sample)
        version_id = s.version_id()
        key = member_key(s, sample, ctx, feed)
        if ctx.cache is not None and (hit := ctx.cache.get(key)) is not None:
            hit = hit.model_copy(update={
                "cached": True, "in_team": in_team,
                "trace": [TraceEvent(kind="cache_hit", strategy=strategy.value,
                                     detail={"key": key[:16]}), *hit.trace]})
            return {"results": {strategy.value: hit}}
        rec = Recorder(strategy)
        calls_to_come(s.llm_calls + task.get("calls_after", 0))  # this juror's calls, then its followers'
        outcome: Outcome | None
        try:
            outcome = await s.run(sample, ctx, rec, feed)
        except ModelError as exc:
            attempt = runtime.execution_info.node_attempt if runtime.execution_info else max_attempts
            if exc.transient and attempt < max_attempts:
                raise
            rec.events.append(TraceEvent(kind="error", strategy=strategy.value, attempt=attempt,
                                         error=str(exc)))
            outcome = None
            failure = f"model call failed after {attempt} attempt(s): {exc}"
        except Exception as exc:
            if strategy.is_llm:
                raise  # a bug in our own code: let it surface
            # a metric library's error fails this juror only; the others still make the verdict
            rec.events.append(TraceEvent(kind="error", strategy=strategy.value, error=f"{type(exc).__name__}: {exc}"))
            outcome = None
            failure = f"{strategy.paper_name} raised {type(exc).__name__}: {exc}"
        result = StrategyResult(
            strategy=strategy,
            status=(Status.FAILED if outcome is None
                    else Status.SCORED if outcome.parsed is not None else Status.UNSCORED),
            score=outcome.parsed.score if outcome and outcome.parsed else None,
            reasons=outcome.parsed.reasons if outcome and outcome.parsed else [],
            detail=failure if outcome is None else outcome.detail,
            artifacts=outcome.artifacts if outcome else {},
            in_team=in_team, weight=outcome.weight if outcome else 1.0, llm_calls=rec.calls,
            against=outcome.against if outcome else None,
            prompt_tokens=rec.prompt_tokens, cached_prompt_tokens=rec.cached_prompt_tokens,
            completion_tokens=rec.completion_tokens, seconds=round(rec.seconds, 3), trace=rec.events,
        )
        if ctx.cache is not None:
            ctx.cache.put(key, result, prompt_version=version_id, model=ctx.llm.name,
                          sample_hash=sample.content_hash())
        return {"results": {strategy.value: result}}

    node.__name__ = f"{strategy.value}_node"
    return node
