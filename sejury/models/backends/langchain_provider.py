"""``provider:name`` (``openai:gpt-4o-mini``, ``anthropic:claude-...``): LangChain's
``init_chat_model``, with the provider's own package and key; structured output by default."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel

from sejury.errors import ModelSetupError
from sejury.models.base import Backend, ModelSettings


def build(s: ModelSettings) -> BaseChatModel:
    from langchain.chat_models import init_chat_model

    kwargs: dict[str, Any] = {"temperature": s.temperature, "max_tokens": s.max_tokens}
    if s.api_key:
        kwargs["api_key"] = s.api_key
    try:
        chat: BaseChatModel = init_chat_model(s.model, max_retries=0, **kwargs)
    except Exception as exc:  # missing provider package, unknown provider, missing key ...
        raise ModelSetupError(f"cannot build model {s.model!r}: {exc}") from exc
    return chat


BACKEND = Backend(name="langchain-provider", rank=40, forms="'provider:name'", accepts=lambda s: ":" in s.model,
                  label=lambda s: s.model, build=build, structured=True)
