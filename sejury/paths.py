"""Where sejury keeps its files and finds what it runs, in one place: every environment variable
read outside the settings (``sejury.config``) is read here, on each call, so a variable set at run
time counts.  ``SEJURY_CACHE_DIR`` (default ``~/.cache/sejury``) holds the result cache, the trace
store, the embedded model, the WordNet copy, the model servers' logs and their registry;
``SEJURY_RUN_DIR`` moves the registry alone (tests do)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    root = os.environ.get("SEJURY_CACHE_DIR")
    return Path(root) if root else Path.home() / ".cache" / "sejury"


def models_dir() -> Path:
    """Where the embedded model is assembled."""
    return cache_dir() / "models"


def run_dir() -> Path:
    """Where running model servers are registered."""
    root = os.environ.get("SEJURY_RUN_DIR")
    return Path(root) if root else cache_dir() / "run"


def results_path() -> Path:
    """The strategy-result cache's default file."""
    return cache_dir() / "results.sqlite"


def traces_path() -> Path:
    """The trace store's default file."""
    return cache_dir() / "traces.sqlite"


def _named(variable: str) -> str | None:
    return os.environ.get(variable, "").strip() or None


def trace_path_named() -> Path | None:
    """``SEJURY_TRACE_PATH``: the judge's ``trace_path`` setting, read where no judge is built (``sejury trace``)."""
    value = _named("SEJURY_TRACE_PATH")
    return Path(value).expanduser() if value else None


def model_path_named() -> Path | None:
    """``SEJURY_MODEL_PATH``: the GGUF the embedded model loads when no ``model_path`` is given."""
    value = _named("SEJURY_MODEL_PATH")
    return Path(value) if value else None


def llama_server_named() -> str | None:
    """``SEJURY_LLAMA_SERVER``: a ``llama-server`` binary to use instead of the one setup.sh built."""
    return _named("SEJURY_LLAMA_SERVER")


def embedded_runtime_named() -> str:
    """``SEJURY_EMBEDDED_RUNTIME`` (the judge's ``embedded_runtime`` setting), for an ``auto`` choice."""
    return _named("SEJURY_EMBEDDED_RUNTIME") or "auto"


def sandbox_image(profile: str = "base") -> str:
    """The sandbox image of a profile (``sandbox/libraries.py``): ``base`` is
    ``SEJURY_SANDBOX_IMAGE``, else the one ``scripts/setup-docker.sh`` builds; ``scientific`` (the
    base plus Debian's scientific Python stack, five libraries at BigCodeBench's versions) is
    ``SEJURY_SANDBOX_SCIENTIFIC_IMAGE``, else ``sejury-sandbox-scientific:5``."""
    if profile == "scientific":
        return _named("SEJURY_SANDBOX_SCIENTIFIC_IMAGE") or "sejury-sandbox-scientific:5"
    return _named("SEJURY_SANDBOX_IMAGE") or "sejury-sandbox:6"


def wordnet_named() -> Path | None:
    """``SEJURY_WORDNET``: a WordNet 3.0 dict folder for METEOR."""
    value = _named("SEJURY_WORDNET")
    return Path(value) if value else None


def wordnet_dir() -> Path:
    """Where the WordNet files METEOR reads are copied."""
    return cache_dir() / "wordnet"
