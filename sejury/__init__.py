"""sejury: judge the correctness of generated code, patches and summaries with a jury of LLM
strategies (SE-Jury), as a LangGraph workflow."""

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
