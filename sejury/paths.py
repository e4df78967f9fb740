"""Where sejury keeps its files, in one place.  ``SEJURY_CACHE_DIR`` (default ``~/.cache/sejury``)
holds the result cache, the trace store, the embedded model, the WordNet copy, the model servers'
logs and their registry; ``SEJURY_RUN_DIR`` moves the registry alone (tests do).  Read on each call,
so a variable set at run time counts."""

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


def wordnet_dir() -> Path:
    """Where the WordNet files METEOR reads are copied."""
    return cache_dir() / "wordnet"
