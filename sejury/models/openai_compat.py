"""A lean LangChain chat model for OpenAI-compatible chat-completions servers: the embedded model's
llama.cpp server and any ``--base-url`` (vLLM, Ollama, llama.cpp, a hosted API).

It sends the request body langchain-openai's ``ChatOpenAI`` sends on these paths (model, messages,
seed, temperature, and the reply cap as ``max_tokens``, see ``openai_compatible_cap``) and returns
the reply as an ``AIMessage`` with its finish reason and token usage, through LangChain's own
``ainvoke`` (callbacks and tracing as for any chat model).  What it leaves out is the openai SDK
and httpx between us and the socket: through them a call cost ~5 ms of CPU here (32 in flight),
through one aiohttp session ~0.9 ms, and ~0.3 ms when nothing observes the call (no tracer, no
callback: then LangChain's run bookkeeping is skipped too).  At 32 calls in flight that CPU was
the bottleneck of a batch (``bench/throughput.py``).  ``ChatOpenAI`` stays the client where
structured output is asked for.

Its errors are ``sejury.errors``' mirror of the openai SDK's (``APIConnectionError``,
``RateLimitError``, ``InternalServerError`` ...): ``sejury.llm.is_transient`` retries those types as it
retries the SDK's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.parse
import urllib.request
import weakref
from collections.abc import Sequence
from typing import Any

import aiohttp
import httpx
from langchain_core.callbacks import AsyncCallbackManager, AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.globals import get_llm_cache
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, ChatMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableConfig, ensure_config
from pydantic import ConfigDict, Field, PrivateAttr, SecretStr

from sejury.errors import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    InternalServerError,
    RateLimitError,
)

_ROLES = {"system": "system", "human": "user", "ai": "assistant"}


def status_error(status: int, body: str) -> APIStatusError:
    """The error for an HTTP status: 408, 409, 429 and 5xx are worth retrying (as the SDK reads them)."""
    if status == 429:
        return RateLimitError(status, body)
    if status >= 500 or status in (408, 409):
        return InternalServerError(status, body)
    return APIStatusError(status, body)


def message_dict(m: BaseMessage) -> dict[str, Any]:
    """A LangChain message as the chat-completions API takes it (as langchain-openai writes it)."""
    role = m.role if isinstance(m, ChatMessage) else _ROLES.get(m.type)
    if role is None:
        raise ValueError(f"an OpenAI-compatible server takes system, user and assistant messages, not {m.type!r}")
    out: dict[str, Any] = {"content": m.content, "role": role}
    if m.name:
        out["name"] = m.name
    return out


def chat_result(data: Any) -> ChatResult:
    """A chat-completions reply as LangChain's result: the text, finish reason and token usage."""
    try:
        choice = data["choices"][0]
        content = choice["message"].get("content") or ""
    except (KeyError, IndexError, TypeError, AttributeError):
        raise APIResponseValidationError(f"not a chat completion: {str(data)[:300]}") from None
    meta: dict[str, Any] = {"finish_reason": choice.get("finish_reason"), "model_name": data.get("model")}
    usage = data.get("usage")
    msg = AIMessage(content=content, response_metadata=meta, id=data.get("id"))
    if isinstance(usage, dict):
        prompt, completion = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
        msg.usage_metadata = {"input_tokens": prompt, "output_tokens": completion,
                              "total_tokens": int(usage.get("total_tokens") or prompt + completion)}
        # the prompt tokens the server reused from its prompt cache instead of reading them again
        # (llama-server and OpenAI report them so), as LangChain's usage names them
        details = usage.get("prompt_tokens_details")
        cached = details.get("cached_tokens") if isinstance(details, dict) else None
        if isinstance(cached, int) and not isinstance(cached, bool) and 0 <= cached <= prompt:
            msg.usage_metadata["input_token_details"] = {"cache_read": cached}
    return ChatResult(generations=[ChatGeneration(message=msg)], llm_output={"model_name": data.get("model")})


def env_proxy(url: str) -> str | None:
    """The proxy the environment names for ``url`` (``HTTP(S)_PROXY``, ``NO_PROXY``), read once per
    session: aiohttp's own ``trust_env`` would also look ``~/.netrc`` up in a thread on every call."""
    parts = urllib.parse.urlsplit(url)
    if parts.hostname and urllib.request.proxy_bypass(parts.hostname):
        return None
    return urllib.request.getproxies().get(parts.scheme)


def _close_sessions(sessions: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession]) -> None:
    """Close each session on its own loop, where that loop still runs (a model dropped or the
    interpreter exiting); a session whose loop has ended has nothing left to close cleanly."""
    for loop, session in list(sessions.items()):
        sessions.pop(loop, None)
        if session.closed or loop.is_closed():
            continue
        with contextlib.suppress(Exception):
            if loop.is_running():
                future = asyncio.run_coroutine_threadsafe(session.close(), loop)
                if asyncio._get_running_loop() is not loop:  # not from the loop's own thread: wait for it
                    future.result(timeout=2)
            else:
                loop.run_until_complete(session.close())


class OpenAICompatibleChat(BaseChatModel):
    """Chat completions from an OpenAI-compatible server, over one aiohttp session per event loop."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model: str
    base_url: str  # e.g. http://127.0.0.1:8000/v1
    api_key: SecretStr = Field(default=SecretStr("sk-none"), repr=False)
    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int = 384
    timeout: float = 600.0  # seconds per call

    _sessions: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession] = PrivateAttr(default_factory=dict)
    _proxy: str | None = PrivateAttr(default=None)

    def model_post_init(self, context: Any) -> None:
        self._proxy = env_proxy(self._url)
        weakref.finalize(self, _close_sessions, self._sessions)

    @property
    def _llm_type(self) -> str:
        return "openai-compatible"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": self.model, "base_url": self.base_url, "temperature": self.temperature,
                "seed": self.seed, "max_tokens": self.max_tokens}

    @property
    def _url(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key.get_secret_value()}", "Content-Type": "application/json",
                "Accept": "application/json", "User-Agent": "sejury"}

    def _body(self, messages: Sequence[BaseMessage], stop: list[str] | None) -> bytes:
        payload: dict[str, Any] = {"model": self.model, "stream": False,
                                   "messages": [message_dict(m) for m in messages]}
        if stop:
            payload["stop"] = stop
        if self.seed is not None:
            payload["seed"] = self.seed
        payload["temperature"] = self.temperature
        payload["max_tokens"] = self.max_tokens
        return json.dumps(payload).encode()

    def _session(self) -> aiohttp.ClientSession:
        loop = asyncio.get_running_loop()
        session = self._sessions.get(loop)
        if session is None or session.closed:
            for gone in [lp for lp in self._sessions if lp.is_closed()]:
                self._sessions.pop(gone).detach()  # its connections ended with their loop
            # no cap on connections here: the ChatClient bounds the calls in flight
            session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), headers=self._headers(),
                                            timeout=aiohttp.ClientTimeout(total=self.timeout))
            self._sessions[loop] = session
        return session

    def _observed(self, config: RunnableConfig | None) -> bool:
        """Whether anything would see this call through LangChain's machinery: a callback handler
        (a tracer: LangSmith, OpenTelemetry; a streaming consumer; ``verbose``), an LLM cache, a
        rate limiter, or content blocks asked for (``output_version="v1"``)."""
        cached = self.cache is not False and (self.cache is not None or get_llm_cache() is not None)
        if cached or self.rate_limiter is not None or self.output_version == "v1":
            return True
        cfg = ensure_config(config)
        return bool(AsyncCallbackManager.configure(cfg.get("callbacks"), self.callbacks, self.verbose).handlers)

    async def ainvoke(self, input: LanguageModelInput, config: RunnableConfig | None = None, *,
                      stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        """LangChain's ``ainvoke``; a call nothing observes (see ``_observed``) goes straight to the
        server: LangChain's run bookkeeping around it cost more CPU than the request itself."""
        if self._observed(config):
            return await super().ainvoke(input, config, stop=stop, **kwargs)
        result = await self._agenerate(self._convert_input(input).to_messages(), stop=stop, **kwargs)
        message = result.generations[0].message
        if not isinstance(message, AIMessage):  # pragma: no cover - chat_result makes AIMessages
            raise TypeError(f"expected an AIMessage, got {type(message).__name__}")
        return message

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: AsyncCallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        try:
            async with self._session().post(self._url, data=self._body(messages, stop), proxy=self._proxy) as resp:
                raw = await resp.read()
                status = resp.status
        except TimeoutError:
            raise APITimeoutError("Request timed out.") from None
        except (aiohttp.ClientConnectionError, aiohttp.ClientPayloadError) as exc:
            raise APIConnectionError(f"Connection error: {exc}") from exc
        return self._result(status, raw)

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        try:
            resp = httpx.post(self._url, content=self._body(messages, stop), headers=self._headers(),
                              timeout=self.timeout)
        except httpx.TimeoutException:
            raise APITimeoutError("Request timed out.") from None
        except httpx.TransportError as exc:
            raise APIConnectionError(f"Connection error: {exc}") from exc
        return self._result(resp.status_code, resp.content)

    def _result(self, status: int, raw: bytes) -> ChatResult:
        if status >= 400:
            raise status_error(status, raw.decode("utf-8", "replace"))
        try:
            data = json.loads(raw)
        except ValueError:
            raise APIResponseValidationError(f"not JSON: {raw[:300]!r}") from None
        return chat_result(data)

    async def aclose(self) -> None:
        """Close the session of the running loop (and hand the others to their loops)."""
        loop = asyncio.get_running_loop()
        session = self._sessions.pop(loop, None)
        if session is not None:
            await session.close()
        others = dict(self._sessions)
        self._sessions.clear()
        await asyncio.to_thread(_close_sessions, others)
