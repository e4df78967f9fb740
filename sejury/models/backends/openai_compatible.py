"""A model name with ``--base-url``: any server speaking OpenAI's chat completions (vLLM, Ollama,
llama.cpp, LM Studio, a hosted API).  The key is ``--api-key`` (``SEJURY_API_KEY``), else
``OPENAI_API_KEY``; replies are read as text unless structured output is asked for."""

from __future__ import annotations

import os

from langchain_core.language_models import BaseChatModel

from sejury.models.base import Backend, ModelSettings, openai_compatible


def build(s: ModelSettings) -> BaseChatModel:
    assert s.base_url is not None  # accepts() said so
    api_key = s.api_key or os.environ.get("OPENAI_API_KEY") or "sk-none"
    return openai_compatible(s, base_url=s.base_url, api_key=api_key, model=s.model)


BACKEND = Backend(name="openai-compatible", rank=30, forms="a model name together with --base-url",
                  accepts=lambda s: s.base_url is not None,
                  label=lambda s: f"openai-compatible:{s.model}@{s.base_url}", build=build)
