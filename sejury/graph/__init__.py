"""The judge graph: ``state`` (state, input/output, plan), ``supervisor`` (team, fan-out, the
"follow the feeder" router, merge), ``member`` (a strategy as a node), ``build`` (wiring)."""

from sejury.context import JudgeContext
from sejury.graph.build import build_graph
from sejury.graph.state import JudgeInput, JudgeOutput, JudgeState, MemberTask, Plan

__all__ = ["JudgeContext", "JudgeInput", "JudgeOutput", "JudgeState", "MemberTask", "Plan", "build_graph"]
