from sejury.graph.build import build_graph
from sejury.graph.context import JudgeContext
from sejury.graph.state import JudgeState, MemberTask, Plan

__all__ = ["JudgeContext", "JudgeState", "MemberTask", "Plan", "build_graph"]
