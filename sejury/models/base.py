"""What a model backend is, and the settings every backend reads.

A backend (``Backend``) turns ``ModelSettings`` into a LangChain chat model; the backends live in
``sejury/models/backends/``, one module each holding a ``BACKEND`` constant, and are found through
``models.BACKENDS`` (``sejury.registry``; another package adds one with an entry point in the
``sejury.backends`` group).  The first backend, in rank order, that ``accepts`` the settings builds
them.  A backend names the model forms it takes (``forms``), for the error an unknown model gets.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, ConfigDict

from sejury.config import JudgeConfig, split_model


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


@dataclass(frozen=True)
class Backend:
    """One way to reach a model; see the module's docstring."""

    name: str
    rank: float  # tried in this order: the first that accepts the settings builds them
    forms: str  # the model specs it takes, as the unknown-model error lists them
    accepts: Callable[[ModelSettings], bool]
    label: Callable[[ModelSettings], str]  # the model's label, part of every cache key; builds nothing
    build: Callable[[ModelSettings], BaseChatModel]
    concurrency: int = 8  # requests in flight when the settings do not say (1: the server decodes one at a time)
    structured: bool = False  # structured output by default (the settings' ``structured`` wins when given)
    lazy: bool = False  # a client for it may wait for its first call to build (start a server)
    aliases: tuple[str, ...] = ()


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
