"""What a strategy's run uses to call the model: one call with its trace (``ask_text``), a call that
ends in a score with a repair turn for an unreadable reply (``ask_score``), and the ``Recorder``
that collects the trace and usage of one strategy while it runs."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from sejury import prompts
from sejury.context import JudgeContext
from sejury.errors import ModelError, ScoreParseError
from sejury.execution.evidence import SuiteRun
from sejury.llm import Reply, current_repeat
from sejury.roster import Strategy
from sejury.schema import TraceEvent
from sejury.scoring import ParsedReply, parse_score

if TYPE_CHECKING:  # LangChain loads with the first call (listing the jurors needs none of it)
    from langchain_core.messages import BaseMessage

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
    cached_prompt_tokens: int = 0
    seconds: float = 0.0

    def llm_event(self, step: str, attempt: int, messages: list[BaseMessage], reply: Reply, *,
                  score: float | None = None, reasons: list[str] | None = None,
                  error: str | None = None) -> None:
        self.calls += 1
        self.prompt_tokens += reply.prompt_tokens
        self.completion_tokens += reply.completion_tokens
        self.cached_prompt_tokens += reply.cached_prompt_tokens
        self.seconds += reply.seconds
        self.events.append(TraceEvent(
            kind="llm_call", strategy=self.strategy.value, step=step, attempt=attempt,
            messages=[{"role": _ROLE.get(m.type, m.type), "content": str(m.content)} for m in messages],
            reply=reply.text, finish_reason=reply.finish_reason, score=score, reasons=reasons,
            error=error, prompt_tokens=reply.prompt_tokens, completion_tokens=reply.completion_tokens,
            cached_prompt_tokens=reply.cached_prompt_tokens, seconds=round(reply.seconds, 3),
            detail={"structured": reply.structured} if reply.structured else None,
        ))


    def sandbox_event(self, step: str, run: SuiteRun | None) -> None:
        """A suite's run in the sandbox, in the trace; its time counts in the juror's seconds."""
        if run is not None:
            self.seconds += run.seconds
            self.events.append(TraceEvent(kind="sandbox_run", strategy=self.strategy.value, step=step,
                                          seconds=run.seconds, detail=run.model_dump()))


def _messages(user: str) -> list[BaseMessage]:
    from langchain_core.messages import HumanMessage, SystemMessage

    return [SystemMessage(prompts.system_prompt()), HumanMessage(user)]


async def ask_text(ctx: JudgeContext, rec: Recorder, step: str, user: str) -> Reply:
    """A step whose reply is text (S4's properties, S5's tests).  These steps never see the
    candidate, so every candidate of one problem sends the same prompt: with the cache on it is
    asked once (per model, settings and repeat), in flight or later, and the others reuse the reply."""
    messages = _messages(user)
    key = reply_key(ctx.llm.name, messages) if ctx.cache is not None else None
    if key is not None:
        shared = await _shared_reply(ctx, key)
        if shared is not None:
            rec.events.append(TraceEvent(
                kind="cache_hit", strategy=rec.strategy.value, step=step, reply=shared.text,
                messages=[{"role": _ROLE.get(m.type, m.type), "content": str(m.content)} for m in messages],
                detail={"key": key[:16], "reply_of": "the same prompt, asked for another sample or run"}))
            return shared
    pending: asyncio.Future[Reply] | None = None
    if key is not None:
        pending = asyncio.get_running_loop().create_future()
        ctx.replies_in_flight[key] = pending
    try:
        reply = await ctx.llm.complete(messages)
    except BaseException:
        if pending is not None and key is not None:
            ctx.replies_in_flight.pop(key, None)
            pending.set_exception(ModelError("the first call with this prompt failed", transient=True))
            pending.exception()  # marked as retrieved: the waiters ask again themselves
        raise
    rec.llm_event(step, 1, messages, reply,
                  error="reply cut off by the token limit" if reply.finish_reason == "length" else None)
    if key is not None and ctx.cache is not None and pending is not None:
        ctx.cache.put_raw(key, f"reply:{step}", json.dumps(dataclasses.asdict(reply)), model=ctx.llm.name)
        ctx.replies_in_flight.pop(key, None)
        pending.set_result(reply)
    return reply


def reply_key(model: str, messages: list[BaseMessage]) -> str:
    """Where a text step's reply is kept: the model (its settings in the name), the repeat, the prompt."""
    raw = json.dumps(["reply", model, current_repeat(), [(m.type, str(m.content)) for m in messages]])
    return hashlib.sha256(raw.encode()).hexdigest()


def messages_for(user: str) -> list[BaseMessage]:
    """The messages a step sends for ``user`` (the shared system line first)."""
    return _messages(user)


async def _shared_reply(ctx: JudgeContext, key: str) -> Reply | None:
    """The reply to an identical prompt: one in flight (awaited; None if it failed), or a stored one."""
    pending = ctx.replies_in_flight.get(key)
    if pending is not None:
        try:
            return await asyncio.shield(pending)
        except Exception:
            return None  # the first asker failed: ask again
    assert ctx.cache is not None
    raw = ctx.cache.get_raw(key)
    return Reply(**json.loads(raw)) if raw is not None else None


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
            from langchain_core.messages import AIMessage, HumanMessage

            messages = [*messages, AIMessage(reply.text),
                        HumanMessage(prompts.render_partial(repair, error=last_error))]
            continue
        rec.llm_event(step, attempt, messages, reply, score=parsed.score, reasons=parsed.reasons)
        return parsed, ""
    return None, last_error
