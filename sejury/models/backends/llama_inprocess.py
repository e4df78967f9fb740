"""``embedded-inprocess``: the bundled model (or ``--model-path``'s GGUF) in this process, through
langchain-community's ``ChatLlamaCpp`` (needs llama-cpp-python: ``SEJURY_PYTHON_RUNTIME=1
scripts/setup.sh``)."""

from __future__ import annotations

import os

from langchain_core.language_models import BaseChatModel

from sejury.models.backends.llama_server import gguf_label, gguf_path
from sejury.models.base import Backend, ModelSettings

EMBEDDED_INPROCESS = "embedded-inprocess"


def build(s: ModelSettings) -> BaseChatModel:
    from langchain_community.chat_models import ChatLlamaCpp

    chat = ChatLlamaCpp(model_path=str(gguf_path(s)), n_ctx=s.n_ctx, n_threads=s.n_threads or os.cpu_count(),
                        seed=s.seed, verbose=False, temperature=s.temperature, max_tokens=s.max_tokens)
    return chat


BACKEND = Backend(name="llama-inprocess", rank=20, forms=f"{EMBEDDED_INPROCESS!r}",
                  accepts=lambda s: s.model == EMBEDDED_INPROCESS, label=lambda s: gguf_label(s) + ":inprocess",
                  build=build, concurrency=1, aliases=(EMBEDDED_INPROCESS,))
