"""Turning a model spec into a ``ChatClient``; our small interface over LangChain's providers.

Specs:
- ``embedded`` (default): the bundled Qwen2.5-Coder-1.5B GGUF behind a managed llama.cpp
  OpenAI-compatible server on loopback (llama.cpp's ``llama-server`` when installed, else
  llama-cpp-python's: ``embedded_runtime``).
- ``embedded-inprocess``: the same model in-process through langchain-community's ``ChatLlamaCpp``.
- any name with ``base_url``: an OpenAI-compatible server (vLLM, Ollama, llama.cpp, a hosted API).
- ``provider:name`` (``openai:gpt-4o-mini``, ``anthropic:claude-...``): LangChain's ``init_chat_model``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, ConfigDict

from sejury import paths
from sejury.config import JudgeConfig, split_model
from sejury.errors import ModelSetupError
from sejury.llm import ChatClient

EMBEDDED = "embedded"
EMBEDDED_INPROCESS = "embedded-inprocess"


def _judge_default(name: str) -> Any:
    """The default of one of the judge's settings (``JudgeConfig``, their one home)."""
    return JudgeConfig.model_fields[name].default


class ModelSettings(BaseModel):
    """How to reach one model: the judge's model settings (their defaults are ``JudgeConfig``'s), and
    the few only a backend reads (context size, threads, seed)."""

    model_config = ConfigDict(extra="forbid")

    model: str = _judge_default("model")
    base_url: str | None = _judge_default("base_url")
    api_key: str | None = _judge_default("api_key")
    model_path: Path | None = _judge_default("model_path")  # another GGUF for the embedded backends
    max_tokens: int = _judge_default("max_tokens")
    temperature: float = _judge_default("temperature")
    seed: int = 0
    timeout: float = _judge_default("timeout")
    max_concurrency: int | None = _judge_default("llm_concurrency")  # None: 1 for the embedded model, 8 otherwise
    structured: bool | None = _judge_default("structured")  # None: off for the embedded model, on for provider:name
    n_ctx: int = 8192
    n_threads: int | None = None
    prompt_cache_mb: int = _judge_default("prompt_cache_mb")  # the embedded server's RAM prompt cache, MiB (0: off)
    runtime: str = _judge_default("embedded_runtime")  # the embedded server: auto, native (llama-server), python

    @classmethod
    def of(cls, config: JudgeConfig, *, custom: bool = False) -> ModelSettings:
        """A judge's model settings (``custom``: the judge was handed a LangChain chat model)."""
        return cls(model="custom" if custom else config.model, base_url=config.base_url,
                   api_key=config.api_key, max_tokens=config.max_tokens, temperature=config.temperature,
                   max_concurrency=config.llm_concurrency,
                   structured=config.structured, model_path=config.model_path, timeout=config.timeout,
                   prompt_cache_mb=config.prompt_cache_mb, runtime=config.embedded_runtime)

    @classmethod
    def jury(cls, config: JudgeConfig) -> dict[str, ModelSettings]:
        """The settings of a multi-model jury's other models (``--jury-model NAME=MODEL[@URL]``): the
        judge's own (reply cap, temperature, timeout), with that model and server."""
        base = cls.of(config)
        out = {}
        for name, value in config.jury_models.items():
            model, url = split_model(value)
            out[name] = base.model_copy(update={"model": model, "base_url": url, "model_path": None})
        return out

    def identity(self, name: str) -> str:
        """What the cache key knows of the model: the name and every setting that changes replies."""
        gen = {"t": self.temperature, "seed": self.seed, "max_tokens": self.max_tokens}
        return f"{name}#{hashlib.sha256(json.dumps(gen, sort_keys=True).encode()).hexdigest()[:8]}"


def _embedded_label(settings: ModelSettings) -> str:
    """The GGUF's name, and ``/llama-server`` when llama.cpp's own server runs it: the two runtimes
    decode with other kernels and batch sizes, so their greedy replies can differ, and a reply
    cached from one is not the other's.  Likewise ``-avx512`` for a llama-server built for AVX-512
    (scripts/setup.sh on a CPU that has it): its kernels round otherwise than the portable build's."""
    from sejury.models import embedded

    runtime = ""
    if embedded.resolve_runtime(settings.runtime) == "native":
        build = embedded.native_server_build(embedded.native_server_binary())
        runtime = "/llama-server" + ("-avx512" if build == "avx512" else "")
    if settings.model_path is not None:
        return f"gguf:{settings.model_path.name}{runtime}"
    if (named := paths.model_path_named()) is not None:
        return f"gguf:{named.name}{runtime}"
    return f"gguf:{embedded.MODEL_ALIAS}@{embedded.MODEL_SHA256[:8]}{runtime}"


def _embedded_path(settings: ModelSettings) -> Path:
    from sejury.models import embedded

    if settings.model_path is not None:
        path = settings.model_path
        if not path.is_file():
            raise ModelSetupError(f"--model-path {path} does not exist")
        return path
    return paths.model_path_named() or embedded.ensure_model(progress=True)


def model_label(settings: ModelSettings) -> str:
    """The model's label as ``make_client`` names it, without building (or starting) the model."""
    s = settings
    if s.model == EMBEDDED and s.base_url is None:
        return _embedded_label(s)
    if s.model == EMBEDDED_INPROCESS:
        return _embedded_label(s) + ":inprocess"
    if s.base_url is not None:
        return f"openai-compatible:{s.model}@{s.base_url}"
    if ":" in s.model:
        return s.model
    raise ModelSetupError(
        f"unknown model {s.model!r}: use 'embedded', 'embedded-inprocess', 'provider:name', "
        "or a model name together with --base-url")


def model_name(settings: ModelSettings) -> str:
    """The run's model identity (``ChatClient.name``, part of every cache key), without building it."""
    return settings.identity(model_label(settings))


def make_client(settings: ModelSettings | None = None, *, chat_model: BaseChatModel | None = None,
                name: str | None = None, lazy: bool = False) -> ChatClient:
    """Build the run's one ``ChatClient``.  Pass ``chat_model`` to use any LangChain chat model.
    ``lazy``: the embedded model's server is started at the first call, not now (for a team that
    may make none)."""
    s = settings or ModelSettings()
    if chat_model is not None:
        label = name or type(chat_model).__name__
        return ChatClient(chat_model, name=s.identity(label), max_concurrency=s.max_concurrency or 4,
                          timeout=s.timeout, structured=bool(s.structured))
    if lazy and s.model == EMBEDDED and s.base_url is None:
        label = model_label(s)
        return ChatClient(None, name=s.identity(label), max_concurrency=s.max_concurrency or 1, timeout=s.timeout,
                          structured=bool(s.structured), factory=lambda: _build(s)[0])
    model, label, default_conc, structured = _build(s)
    return ChatClient(model, name=s.identity(label), max_concurrency=s.max_concurrency or default_conc,
                      timeout=s.timeout, structured=structured if s.structured is None else s.structured)


def openai_compatible_cap(max_tokens: int) -> dict[str, Any]:
    """The reply cap for an OpenAI-compatible server, as that server reads it.

    langchain-openai sends the cap as ``max_completion_tokens`` (OpenAI's newer name), which
    llama-cpp-python's server ignores: it then generates until the context is full (one call
    measured here ran to 7,174 tokens, ~6.5 minutes).  Every OpenAI-compatible server (llama.cpp,
    vLLM, Ollama, LM Studio, OpenAI's chat completions for non-reasoning models) reads the legacy
    ``max_tokens``, so on these paths the cap goes in the request body under that name only."""
    return {"max_tokens": None, "extra_body": {"max_tokens": max_tokens}}


def openai_compatible(s: ModelSettings, *, base_url: str, api_key: str, model: str) -> BaseChatModel:
    """The chat model for an OpenAI-compatible server: the lean ``OpenAICompatibleChat`` (the same
    request body as ``ChatOpenAI``, a sixth of its CPU per call or less), or ``ChatOpenAI`` itself
    where structured output is asked for (its ``with_structured_output``)."""
    if not s.structured:
        from sejury.models.openai_compat import OpenAICompatibleChat

        return OpenAICompatibleChat(base_url=base_url, api_key=api_key, model=model, seed=s.seed,
                                    temperature=s.temperature, max_tokens=s.max_tokens, timeout=s.timeout)
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(base_url=base_url, api_key=api_key, model=model, seed=s.seed, max_retries=0,
                      timeout=s.timeout, temperature=s.temperature, **openai_compatible_cap(s.max_tokens))


def _build(s: ModelSettings) -> tuple[BaseChatModel, str, int, bool]:
    label = model_label(s)  # refuses an unknown model, naming the forms it takes
    common: dict[str, Any] = {"temperature": s.temperature, "max_tokens": s.max_tokens}
    if s.model == EMBEDDED and s.base_url is None:
        from sejury.models.embedded import EmbeddedServer, ServerConfig, resolve_runtime

        path = _embedded_path(s)
        server = EmbeddedServer.shared(ServerConfig(model_path=path, n_ctx=s.n_ctx, n_threads=s.n_threads,
                                                     prompt_cache_mb=s.prompt_cache_mb,
                                                     runtime=resolve_runtime(s.runtime)))
        chat = openai_compatible(s, base_url=server.base_url, api_key="sk-local", model=server.config.alias)
        # llama.cpp's server decodes one request at a time: more in flight only queues there.
        return chat, label, 1, False
    if s.model == EMBEDDED_INPROCESS:
        from langchain_community.chat_models import ChatLlamaCpp

        path = _embedded_path(s)
        chat_lc = ChatLlamaCpp(model_path=str(path), n_ctx=s.n_ctx, n_threads=s.n_threads or os.cpu_count(),
                               seed=s.seed, verbose=False, **common)
        return chat_lc, label, 1, False
    if s.base_url is not None:
        api_key = s.api_key or os.environ.get("OPENAI_API_KEY") or "sk-none"
        chat = openai_compatible(s, base_url=s.base_url, api_key=api_key, model=s.model)
        return chat, label, 8, False
    if ":" in s.model:
        from langchain.chat_models import init_chat_model

        kwargs: dict[str, Any] = dict(common)
        if s.api_key:
            kwargs["api_key"] = s.api_key
        try:
            chat_any = init_chat_model(s.model, max_retries=0, **kwargs)
        except Exception as exc:  # missing provider package, unknown provider, missing key ...
            raise ModelSetupError(f"cannot build model {s.model!r}: {exc}") from exc
        return chat_any, label, 8, True
    raise AssertionError(f"model_label accepted {s.model!r}, but no backend builds it")
