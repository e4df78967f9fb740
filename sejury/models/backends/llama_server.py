"""``embedded`` (the default): the bundled Qwen2.5-Coder-1.5B GGUF behind a managed llama.cpp
OpenAI-compatible server on loopback (llama.cpp's ``llama-server`` when installed, else
llama-cpp-python's: ``embedded_runtime``), shared by every judge of the process and started at
the first call of a lazy client."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from langchain_core.language_models import BaseChatModel

from sejury import paths
from sejury.errors import ModelSetupError
from sejury.models.base import Backend, ModelSettings, openai_compatible

if TYPE_CHECKING:  # the server's module loads with the first use
    from sejury.models.embedded import EmbeddedServer

EMBEDDED = "embedded"


def accepts(s: ModelSettings) -> bool:
    return s.model == EMBEDDED and s.base_url is None


def gguf_label(s: ModelSettings) -> str:
    """The GGUF's name, and ``/llama-server`` when llama.cpp's own server runs it: the two runtimes
    decode with other kernels and batch sizes, so their greedy replies can differ, and a reply
    cached from one is not the other's.  Likewise ``-avx512`` for a llama-server built for AVX-512
    (scripts/setup.sh on a CPU that has it): its kernels round otherwise than the portable build's."""
    from sejury.models import embedded

    runtime = ""
    if embedded.resolve_runtime(s.runtime) == "native":
        build = embedded.native_server_build(embedded.native_server_binary())
        runtime = "/llama-server" + ("-avx512" if build == "avx512" else "")
    if s.model_path is not None:
        return f"gguf:{s.model_path.name}{runtime}"
    if (named := paths.model_path_named()) is not None:
        return f"gguf:{named.name}{runtime}"
    return f"gguf:{embedded.MODEL_ALIAS}@{embedded.MODEL_SHA256[:8]}{runtime}"


def gguf_path(s: ModelSettings) -> Path:
    """The GGUF to load: ``--model-path``, ``SEJURY_MODEL_PATH``, or the bundled model (assembled
    from its packages on first use)."""
    from sejury.models import embedded

    if s.model_path is not None:
        if not s.model_path.is_file():
            raise ModelSetupError(f"--model-path {s.model_path} does not exist")
        return s.model_path
    return paths.model_path_named() or embedded.ensure_model(progress=True)


def shared_server(s: ModelSettings) -> EmbeddedServer:
    """The machine's embedded server for these settings, joined or started."""
    from sejury.models.embedded import EmbeddedServer, ServerConfig, resolve_runtime

    return EmbeddedServer.shared(ServerConfig(model_path=gguf_path(s), n_ctx=s.n_ctx, n_threads=s.n_threads,
                                              prompt_cache_mb=s.prompt_cache_mb, runtime=resolve_runtime(s.runtime)))


def build(s: ModelSettings) -> BaseChatModel:
    server = shared_server(s)
    chat = openai_compatible(s, base_url=server.base_url, api_key="sk-local", model=server.config.alias)
    return chat


# llama.cpp's server decodes one request at a time: more in flight only queues there
BACKEND = Backend(name="llama-server", rank=10, forms="'embedded'", accepts=accepts, label=gguf_label,
                  build=build, concurrency=1, lazy=True, aliases=(EMBEDDED,))
