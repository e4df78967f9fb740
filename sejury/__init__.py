"""sejury: judge the correctness of generated code, patches and summaries with a jury of LLM
strategies (SE-Jury), as a LangGraph workflow.

The public names below are imported when first used (PEP 562), so ``import sejury`` and the CLI's
``--help`` do not load LangChain and LangGraph; ``from sejury import Judge`` works as before."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sejury.api import Judge, ajudge, judge, judge_many, load_team_file
    from sejury.config import JudgeConfig
    from sejury.errors import InputError, ModelError, ModelSetupError, SandboxError, SejuryError
    from sejury.graph import JudgeContext, build_graph
    from sejury.schema import (
        Sample,
        Scale,
        Status,
        Strategy,
        StrategyResult,
        Task,
        TeamFile,
        TraceEvent,
        Verdict,
    )

__version__ = "0.1.0"

__all__ = [
    "InputError", "Judge", "JudgeConfig", "JudgeContext", "ModelError", "ModelSetupError", "Sample", "SandboxError",
    "Scale", "SejuryError", "Status", "Strategy", "StrategyResult", "Task", "TeamFile", "TraceEvent",
    "Verdict", "ajudge", "build_graph", "judge", "judge_many", "load_team_file",
]

# where each public name lives (the module is imported on first use)
_HOMES = {
    **dict.fromkeys(("Judge", "ajudge", "judge", "judge_many", "load_team_file"), "sejury.api"),
    "JudgeConfig": "sejury.config",
    **dict.fromkeys(("InputError", "ModelError", "ModelSetupError", "SandboxError", "SejuryError"), "sejury.errors"),
    **dict.fromkeys(("JudgeContext", "build_graph"), "sejury.graph"),
    **dict.fromkeys(("Sample", "Scale", "Status", "Strategy", "StrategyResult", "Task", "TeamFile", "TraceEvent",
                     "Verdict"), "sejury.schema"),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'sejury' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
