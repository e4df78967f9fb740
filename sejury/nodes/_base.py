"""What every strategy node shares: calling the model with a trace, reading a score with a repair
turn, the cache, and turning an outcome or a failure into a ``StrategyResult``."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from sejury import prompts
from sejury.cache import cache_key
from sejury.errors import ModelError, ScoreParseError, SejuryError
from sejury.graph.context import JudgeContext
from sejury.graph.state import MemberTask
from sejury.llm import Reply
from sejury.sandbox.execution import SuiteRun
from sejury.sandbox.runners import RUNNERS_VERSION
from sejury.schema import Sample, Status, Strategy, StrategyResult, TraceEvent
from sejury.scoring import ParsedReply, parse_score

_ROLE = {"system": "system", "human": "user", "ai": "assistant"}


class ScoreReply(BaseModel):
    """The schema asked for where structured output is on."""

    reasons: list[str] = Field(description="at most three short reasons")
    score: int = Field(ge=0, le=100, description="0-100 correctness score")


@dataclass
class Recorder:
    """Collects one strategy's trace and usage while it runs."""

    strategy: Strategy
    events: list[TraceEvent] = field(default_factory=list)
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0

    def llm_event(self, step: str, attempt: int, messages: list[BaseMessage], reply: Reply, *,
                  score: float | None = None, reasons: list[str] | None = None,
                  error: str | None = None) -> None:
        self.calls += 1
        self.prompt_tokens += reply.prompt_tokens
        self.completion_tokens += reply.completion_tokens
        self.seconds += reply.seconds
        self.events.append(TraceEvent(
            kind="llm_call", strategy=self.strategy.value, step=step, attempt=attempt,
            messages=[{"role": _ROLE.get(m.type, m.type), "content": str(m.content)} for m in messages],
            reply=reply.text, finish_reason=reply.finish_reason, score=score, reasons=reasons,
            error=error, prompt_tokens=reply.prompt_tokens, completion_tokens=reply.completion_tokens,
            seconds=round(reply.seconds, 3),
            detail={"structured": reply.structured} if reply.structured else None,
        ))


    def sandbox_event(self, step: str, run: SuiteRun | None) -> None:
        """A suite's run in the sandbox, in the trace."""
        if run is not None:
            self.events.append(TraceEvent(kind="sandbox_run", strategy=self.strategy.value, step=step,
                                          seconds=run.seconds, detail=run.model_dump()))


@dataclass
class Outcome:
    """What a strategy hands back: a parsed score (None: unscored) and what it made on the way."""

    parsed: ParsedReply | None
    detail: str | None = None
    artifacts: dict[str, Any] = field(default_factory=dict)


def _messages(user: str) -> list[BaseMessage]:
    return [SystemMessage(prompts.system_prompt()), HumanMessage(user)]


async def ask_text(ctx: JudgeContext, rec: Recorder, step: str, user: str) -> Reply:
    """A step whose reply is text (S4's properties, S5's tests)."""
    messages = _messages(user)
    reply = await ctx.llm.complete(messages)
    rec.llm_event(step, 1, messages, reply,
                  error="reply cut off by the token limit" if reply.finish_reason == "length" else None)
    return reply


ReplyParser = Callable[..., ParsedReply]  # (text, *, finish_reason) -> ParsedReply or ScoreParseError


async def ask_score(ctx: JudgeContext, rec: Recorder, step: str, user: str, *, parse: ReplyParser = parse_score,
                    repair: str = "repair") -> tuple[ParsedReply | None, str]:
    """A step that ends in a score (0-100 after ``parse``).  An unreadable reply gets up to
    ``ctx.parse_retries`` repair turns (the ``repair`` partial; at temperature 0 a plain re-ask would
    repeat it); then the member is unscored with every raw reply kept in the trace.  Structured output,
    where on, is asked for the default 0-100 format only.  Returns (parsed or None, last error)."""
    messages = _messages(user)
    last_error = ""
    schema = ScoreReply if parse is parse_score else None
    for attempt in range(1, ctx.parse_retries + 2):
        reply = await ctx.llm.complete(messages, schema=schema if attempt == 1 else None)
        if reply.structured is not None:
            try:
                got = ScoreReply.model_validate(reply.structured)
                parsed = ParsedReply(score=float(got.score), reasons=got.reasons)
                rec.llm_event(step, attempt, messages, reply, score=parsed.score, reasons=parsed.reasons)
                return parsed, ""
            except ValueError:
                pass  # fall back to reading the text
        try:
            parsed = parse(reply.text, finish_reason=reply.finish_reason)
        except ScoreParseError as exc:
            last_error = str(exc)
            rec.llm_event(step, attempt, messages, reply, error=last_error)
            messages = [*messages, AIMessage(reply.text),
                        HumanMessage(prompts.render_partial(repair, error=last_error))]
            continue
        rec.llm_event(step, attempt, messages, reply, score=parsed.score, reasons=parsed.reasons)
        return parsed, ""
    return None, last_error


StrategyRun = Callable[[Sample, JudgeContext, Recorder, StrategyResult | None], Awaitable[Outcome]]


def _feed_digest(feed: StrategyResult | None) -> str:
    if feed is None:
        return ""
    raw = f"{feed.status}|{feed.score}|{feed.reasons}"
    if feed.strategy is Strategy.GENERATE_TESTS:  # the pass ratio reads S5's execution
        ex = feed.artifacts.get("execution")
        raw += f"|{ex.get('pass_ratio') if isinstance(ex, dict) else ex}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def member_node(strategy: Strategy, run: StrategyRun, *, max_attempts: int, default_context: JudgeContext | None,
                version: Callable[[], str]) -> Callable[..., Awaitable[dict[str, Any]]]:
    """Wrap a strategy as a graph node: cache, retries of transient model errors (the node's
    RetryPolicy re-runs it; on the last attempt the member is recorded as failed instead, so one
    broken member never sinks the verdict), and the StrategyResult."""

    async def node(task: MemberTask, runtime: Runtime[JudgeContext]) -> dict[str, Any]:
        ctx = runtime.context or default_context
        if ctx is None:
            raise SejuryError("no judge context: pass context= to graph.ainvoke or build_graph")
        sample, in_team, feed = task["sample"], task.get("in_team", True), task.get("feed")
        version_id = version()
        extra = _feed_digest(feed)
        if ctx.execute and strategy is Strategy.GENERATE_TESTS:
            extra += f"|exec:{ctx.execution_weight:g}|runners:{RUNNERS_VERSION}"
        key = cache_key(strategy=strategy.value, prompt_version=version_id, model=ctx.llm.name,
                        sample_hash=sample.content_hash(), extra=extra)
        if ctx.cache is not None and (hit := ctx.cache.get(key)) is not None:
            hit = hit.model_copy(update={
                "cached": True, "in_team": in_team,
                "trace": [TraceEvent(kind="cache_hit", strategy=strategy.value,
                                     detail={"key": key[:16]}), *hit.trace]})
            return {"results": {strategy.value: hit}}
        rec = Recorder(strategy)
        try:
            outcome = await run(sample, ctx, rec, feed)
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
            in_team=in_team, llm_calls=rec.calls, prompt_tokens=rec.prompt_tokens,
            completion_tokens=rec.completion_tokens, seconds=round(rec.seconds, 3), trace=rec.events,
        )
        if ctx.cache is not None:
            ctx.cache.put(key, result, prompt_version=version_id, model=ctx.llm.name,
                          sample_hash=sample.content_hash())
        return {"results": {strategy.value: result}}

    node.__name__ = f"{strategy.value}_node"
    return node
