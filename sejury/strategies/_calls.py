"""What a strategy's run uses to call the model: one call with its trace (``ask_text``), a call that
ends in a score with a repair turn for an unreadable reply (``ask_score``), and the ``Recorder``
that collects the trace and usage of one strategy while it runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from sejury import prompts
from sejury.context import JudgeContext
from sejury.errors import ScoreParseError
from sejury.execution.evidence import SuiteRun
from sejury.llm import Reply
from sejury.roster import Strategy
from sejury.schema import TraceEvent
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
