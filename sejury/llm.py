"""The one way to call a model: a bound on in-flight calls, timing, token accounting, error classes.

Retries live in one place each: transient failures (connection, timeout, 5xx, rate limit) are
retried by the graph's RetryPolicy on the strategy nodes; an unreadable score gets a repair turn
(``strategies/_calls.py``).  The underlying clients are built with their own retries off.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from sejury.errors import APIConnectionError, InternalServerError, ModelError, RateLimitError

if TYPE_CHECKING:  # LangChain loads with the model (the jurors' modules import this one)
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage


@dataclass(frozen=True)
class Reply:
    text: str
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    structured: dict[str, Any] | None = None  # the parsed object, when structured output worked
    cached_prompt_tokens: int = 0  # of prompt_tokens, those the server reused from its prompt cache


def _cache_read(usage: dict[str, Any]) -> int:
    """The prompt tokens the server reused from its cache (LangChain's ``cache_read``), or 0."""
    value = (usage.get("input_token_details") or {}).get("cache_read")
    return value if isinstance(value, int) and value > 0 else 0


def _finish_reason(msg: AIMessage) -> str | None:
    meta = msg.response_metadata or {}
    reason = meta.get("finish_reason") or meta.get("stop_reason")
    return str(reason) if reason is not None else None


def _text(msg: AIMessage) -> str:
    content: Any = msg.content
    if isinstance(content, str):
        return content
    parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in content]
    return "".join(parts)


def _transient_types() -> tuple[type[BaseException], ...]:
    """The exception types worth a retry: a timeout, a broken connection, a rate limit, a 5xx.

    The SDKs' own classes are read only from the SDKs already loaded: an exception of a class whose
    module is not imported cannot be raised, so asking costs no import (the openai SDK alone takes
    0.8 s to load here: `python -X importtime -c "import openai"`)."""
    found: list[type[BaseException]] = [
        TimeoutError,  # asyncio.TimeoutError, aiohttp's timeouts
        ConnectionError,  # refused, reset, aborted, broken pipe
        APIConnectionError, RateLimitError, InternalServerError,  # OpenAICompatibleChat's (APITimeoutError too)
    ]
    if "openai" in sys.modules:  # ChatOpenAI (structured output, provider specs)
        import openai

        found += [openai.APIConnectionError, openai.RateLimitError, openai.InternalServerError]
    if "httpx" in sys.modules:  # a transport error that reached us unwrapped
        import httpx

        found += [httpx.ConnectError, httpx.ConnectTimeout, httpx.ReadTimeout, httpx.ReadError,
                  httpx.RemoteProtocolError, httpx.PoolTimeout]
    if "httpcore" in sys.modules:  # httpx's transport, whose errors carry the same names
        import httpcore

        found += [httpcore.ConnectError, httpcore.ConnectTimeout, httpcore.ReadTimeout, httpcore.ReadError,
                  httpcore.RemoteProtocolError, httpcore.PoolTimeout]
    if (anthropic := sys.modules.get("anthropic")) is not None:  # ``anthropic:...`` models; not a dependency
        found += [cls for name in ("APIConnectionError", "RateLimitError", "InternalServerError",
                                   "ServiceUnavailableError")
                  if isinstance(cls := getattr(anthropic, name, None), type) and issubclass(cls, BaseException)]
    return tuple(found)


def is_transient(exc: BaseException) -> bool:
    """Worth retrying: the same request may well succeed a moment later."""
    if isinstance(exc, ModelError):
        return exc.transient
    return isinstance(exc, _transient_types())


# A sample's rank in the calls' queue: the order in which its judgment began (``sample_rank``).
_RANK: contextvars.ContextVar[int] = contextvars.ContextVar("sejury_sample_rank", default=0)
_NEXT_RANK = itertools.count(1)


def sample_rank() -> None:
    """Mark the current task (and the graph's tasks it starts) as one new judgment: when calls wait
    for the model, those of the judgment begun first go first, so one sample's calls reach the
    server together and its prefix cache holds the sample's data between them."""
    _RANK.set(next(_NEXT_RANK))


# The repeat of the current judgment (``sejury batch --repeats K``): None outside repeats.  Repeat r
# samples with seed + r and is cached under its own key; repeat 0 is the ordinary judgment.
_REPEAT: contextvars.ContextVar[int | None] = contextvars.ContextVar("sejury_repeat", default=None)


def set_repeat(repeat: int | None) -> None:
    """Mark the current task (and the graph's tasks it starts) as repeat ``repeat`` of a judgment."""
    if repeat is not None and repeat < 0:
        raise ValueError("a repeat is a number from 0")
    _REPEAT.set(repeat)


def current_repeat() -> int | None:
    return _REPEAT.get()


@contextlib.contextmanager
def repeat_scope(repeat: int | None) -> Iterator[None]:
    """``set_repeat`` for a block only (a dry run's cache lookups)."""
    token = _REPEAT.set(repeat)
    try:
        yield
    finally:
        _REPEAT.reset(token)


# The model calls still to come on the current juror's path, this call included: its own and those
# of the jurors it feeds (``calls_to_come``); a list, so each call counts itself off.  None: unknown.
_TO_COME: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("sejury_calls_to_come", default=None)


def calls_to_come(calls: int) -> None:
    """Mark the current task (one juror's graph node) as the start of a path of ``calls`` model
    calls: the juror's own, then the longest of its followers' (S1-ref's one, then S2's).  With 4
    or more calls in flight, a call with more to come after it is served a little sooner (``_Limiter``)."""
    _TO_COME.set([calls])


def _calls_after() -> int:
    """How many calls are still to come after the one being made now (counting it off)."""
    left = _TO_COME.get()
    if left is None:
        return 0
    after = max(left[0] - 1, 0)
    left[0] = after
    return after


class _Limiter:
    """At most ``size`` holders; waiters are let in by rank (then arrival), not arrival alone.

    A call with calls still to come after it on its path (``calls_after``: S1-ref's before S2, the
    first steps of S4 and S5) waits as if its judgment had begun ``size // 4`` judgments earlier:
    it goes before the last steps of the next few judgments.  By rank alone the judgments begun
    last sent their first steps in the last wave and needed more waves for the rest; the judgments
    still finish about in the order they began, each holding one of the samples' slots until it
    does (a simulation of the schedule, LangGraph's supersteps included: at 32 calls in flight a
    head start of 8 judgments beats 0, 4, 16 and 32 at 96 and 480 samples, and a quarter of the
    slots was as good or best from 4 to 64 slots; ``bench/throughput.py`` measures it).  With
    fewer than 4 slots (the embedded model has one) the order is by rank alone, so a judgment's
    calls stay together for the server's prefix cache."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.free = size
        self.waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def __call__(self, calls_after: int = 0) -> _Slot:
        """A slot for a call with ``calls_after`` calls to come after it on its path."""
        return _Slot(self, calls_after)

    async def acquire(self, calls_after: int = 0) -> None:
        if self.free > 0 and not self.waiters:
            self.free -= 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        key = _RANK.get() - (self.size // 4 if calls_after > 0 else 0)
        heapq.heappush(self.waiters, (key, next(self._seq), fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # granted, then cancelled: pass the slot on
                self._release()
            raise

    def _release(self) -> None:
        while self.waiters:
            _, _, fut = heapq.heappop(self.waiters)
            if not fut.done():
                fut.set_result(None)
                return
        self.free += 1


class _Slot:
    """``async with limiter(calls_after):`` one slot of a ``_Limiter``."""

    def __init__(self, limiter: _Limiter, calls_after: int) -> None:
        self.limiter = limiter
        self.calls_after = calls_after

    async def __aenter__(self) -> None:
        await self.limiter.acquire(self.calls_after)

    async def __aexit__(self, *exc: object) -> None:
        self.limiter._release()


class ChatClient:
    """Wraps any LangChain chat model.  One instance is shared by every judgment of a run,
    so ``max_concurrency`` bounds the in-flight calls of the whole run, not of one sample."""

    def __init__(self, model: BaseChatModel | None, *, name: str, max_concurrency: int = 4,
                 timeout: float | None = 600.0, structured: bool = False,
                 factory: Callable[[], BaseChatModel] | None = None) -> None:
        """``model=None`` with a ``factory``: the model is built at the first call (a team that
        makes no model call never starts the embedded model's server)."""
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be >= 1")
        if model is None and factory is None:
            raise ValueError("a ChatClient needs a model or a factory that builds one")
        self._model = model
        self._factory = factory
        self._building = threading.Lock()
        self.name = name
        self.max_concurrency = max_concurrency
        self.timeout = timeout
        # Structured output is an optimisation where the server supports it; the first call that
        # shows it does not (e.g. llama.cpp's server answers json_schema with HTTP 500) turns it off.
        self.structured = structured
        self._limiter: _Limiter | None = None
        self._limiter_loop: asyncio.AbstractEventLoop | None = None
        self._reseeded: dict[int, BaseChatModel] = {}
        self.calls = 0
        self.in_flight = 0
        self.peak_in_flight = 0

    @property
    def model(self) -> BaseChatModel:
        """The chat model, built now if it was left to its first use (blocks while it starts)."""
        if self._model is None:
            with self._building:
                if self._model is None:
                    assert self._factory is not None
                    self._model = self._factory()
        return self._model

    @property
    def started(self) -> bool:
        """Whether the model is built (always, unless it was left to its first call)."""
        return self._model is not None

    async def aclose(self) -> None:
        """Release the model's connections, where it holds some (``OpenAICompatibleChat``); a call
        after this opens them again."""
        if self._model is None:
            return
        close = getattr(self._model, "aclose", None)
        if close is not None and asyncio.iscoroutinefunction(close):
            await close()

    def _calls_limiter(self) -> _Limiter:
        loop = asyncio.get_running_loop()
        if self._limiter is None or self._limiter_loop is not loop:
            self._limiter = _Limiter(self.max_concurrency)
            self._limiter_loop = loop
        return self._limiter

    async def complete(self, messages: list[BaseMessage],
                       schema: type[BaseModel] | None = None) -> Reply:
        """One call.  With ``schema`` and structured output on, the model is asked for that schema;
        ``Reply.structured`` then holds the parsed object and ``Reply.text`` the raw content."""
        if self._model is None:  # left to its first call: start it off the event loop
            await asyncio.to_thread(lambda: self.model)
        if schema is not None and self.structured:
            try:
                return await self._complete(messages, schema)
            except ModelError as exc:
                if exc.transient:
                    raise
                self.structured = False  # unsupported here: plain text from now on
        return await self._complete(messages, None)

    def seeded_model(self, repeat: int | None) -> BaseChatModel:
        """The model a repeat calls: repeat r > 0 samples with the model's seed + r, where the model
        takes a seed (OpenAI-compatible servers, the OpenAI API); elsewhere the model as it is
        (its sampling is then unseeded, and the repeats differ only by chance)."""
        if not repeat:
            return self.model
        model = self._reseeded.get(repeat)
        if model is None:
            model = self.model
            if "seed" in type(model).model_fields:
                model = model.model_copy(update={"seed": (getattr(model, "seed", None) or 0) + repeat})
            self._reseeded[repeat] = model
        return model

    async def _complete(self, messages: list[BaseMessage], schema: type[BaseModel] | None) -> Reply:
        runnable: Any = self.seeded_model(_REPEAT.get())
        if schema is not None:
            runnable = runnable.with_structured_output(schema, include_raw=True)
        async with self._calls_limiter()(_calls_after()):
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
            start = time.perf_counter()
            try:
                async with asyncio.timeout(self.timeout):  # not wait_for: on 3.11 that is a task per call
                    out = await runnable.ainvoke(messages)
            except Exception as exc:
                raise ModelError(f"{self.name}: {type(exc).__name__}: {exc}",
                                 transient=is_transient(exc)) from exc
            finally:
                self.in_flight -= 1
                self.calls += 1
            seconds = time.perf_counter() - start
        structured: dict[str, Any] | None = None
        if schema is not None:
            msg, parsed = out.get("raw"), out.get("parsed")
            if isinstance(parsed, BaseModel):
                structured = parsed.model_dump()
        else:
            msg = out
        from langchain_core.messages import AIMessage

        if not isinstance(msg, AIMessage):
            raise ModelError(f"{self.name}: expected an AI message, got {type(msg).__name__}",
                             transient=False)
        usage: dict[str, Any] = dict(msg.usage_metadata or {})
        return Reply(
            text=_text(msg),
            finish_reason=_finish_reason(msg),
            prompt_tokens=int(usage.get("input_tokens", 0) or 0),
            completion_tokens=int(usage.get("output_tokens", 0) or 0),
            seconds=seconds,
            structured=structured,
            cached_prompt_tokens=_cache_read(usage),
        )
