"""Turning a model spec into a ``ChatClient``; our small interface over LangChain's providers.

The backends, one module each in ``sejury/models/backends/`` (``models.base.Backend``), registered
in ``BACKENDS``; the first, in rank order, that accepts the settings builds the chat model:
- ``embedded`` (default): the bundled Qwen2.5-Coder-1.5B GGUF behind a managed llama.cpp
  OpenAI-compatible server on loopback (``llama_server``);
- ``embedded-inprocess``: the same model in-process through langchain-community's ``ChatLlamaCpp``;
- any name with ``base_url``: an OpenAI-compatible server (vLLM, Ollama, llama.cpp, a hosted API);
- ``provider:name`` (``openai:gpt-4o-mini``, ``anthropic:claude-...``): LangChain's ``init_chat_model``.
"""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel

from sejury.errors import ModelSetupError
from sejury.llm import ChatClient
from sejury.models.backends.llama_inprocess import EMBEDDED_INPROCESS
from sejury.models.backends.llama_server import EMBEDDED
from sejury.models.base import Backend, ModelSettings, openai_compatible, openai_compatible_cap
from sejury.registry import Registry

# the model backends: every module of ``sejury/models/backends/`` (its ``BACKEND``), then the
# ``sejury.backends`` entry points (``sejury.registry``), tried in rank order
BACKENDS: Registry[Backend] = Registry("model backend", package="sejury.models.backends", group="sejury.backends",
                                       attribute="BACKEND", name=lambda b: b.name, aliases=lambda b: b.aliases,
                                       rank=lambda b: b.rank)


def backend_for(settings: ModelSettings) -> Backend:
    """The backend that builds these settings; a clear error naming the forms a model takes when
    none does."""
    for backend in BACKENDS:
        if backend.accepts(settings):
            return backend
    forms = [b.forms for b in BACKENDS]
    raise ModelSetupError(f"unknown model {settings.model!r}: use " + ", ".join(forms[:-1]) + f", or {forms[-1]}")


def model_label(settings: ModelSettings) -> str:
    """The model's label as ``make_client`` names it, without building (or starting) the model."""
    return backend_for(settings).label(settings)


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
    backend = backend_for(s)  # refuses an unknown model, naming the forms it takes
    label = backend.label(s)
    if lazy and backend.lazy:
        chat, factory = None, lambda: backend.build(s)
    else:
        chat, factory = backend.build(s), None
    return ChatClient(chat, name=s.identity(label), max_concurrency=s.max_concurrency or backend.concurrency,
                      timeout=s.timeout, structured=backend.structured if s.structured is None else s.structured,
                      factory=factory)


__all__ = ["BACKENDS", "EMBEDDED", "EMBEDDED_INPROCESS", "Backend", "ModelSettings", "backend_for",
           "make_client", "model_label", "model_name", "openai_compatible", "openai_compatible_cap"]
