"""Wiring only: supervisor -> Send(team members) -> [S1 -> S2] -> merge.

    START -> supervisor --Send--> direct, direct_ref, equivalence, reference_analysis, generate_tests,
                                  the metric jurors and the baselines
             direct | direct_ref --(the feeder, when S2 is in the team)--> rethink
             generate_tests --(when S5-exec is in the team)--> test_pass
             every member -> merge (deferred: runs once, after all members) -> END
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from sejury.graph.context import JudgeContext
from sejury.graph.state import JudgeState
from sejury.llm import is_transient
from sejury.nodes import REGISTRY
from sejury.nodes._base import member_node
from sejury.nodes.supervisor import MERGE, after_s1, after_s5, fan_out, make_merge, make_supervisor
from sejury.schema import Strategy

S1_VARIANTS = (Strategy.DIRECT, Strategy.DIRECT_REF)


def build_graph(context: JudgeContext | None = None, *, retry_attempts: int = 3) -> Any:
    """The compiled judge graph.

    ``context`` is the default run context (model client, team, cache ...); a caller may instead
    pass ``context=`` to ``ainvoke``.  Transient model errors are retried ``retry_attempts`` times
    per member by LangGraph's RetryPolicy (whose default would skip our error types).

    >>> graph = build_graph(JudgeContext(llm=client))
    >>> (await graph.ainvoke({"sample": sample}))["verdict"].score
    """
    retry = RetryPolicy(max_attempts=retry_attempts, initial_interval=1.0, retry_on=is_transient)
    g = StateGraph(JudgeState, context_schema=JudgeContext)
    g.add_node("supervisor", make_supervisor(context))
    for strategy, spec in REGISTRY.items():
        g.add_node(strategy.value,
                   member_node(strategy, spec.run, max_attempts=retry_attempts, default_context=context,
                               version=spec.version),
                   retry_policy=retry)
    g.add_node(MERGE, make_merge(context), defer=True)

    g.add_edge(START, "supervisor")
    g.add_conditional_edges("supervisor", fan_out, [s.value for s in REGISTRY] + [MERGE])
    for s1 in S1_VARIANTS:
        g.add_conditional_edges(s1.value, after_s1(s1), [Strategy.RETHINK.value, MERGE])
    g.add_conditional_edges(Strategy.GENERATE_TESTS.value, after_s5, [Strategy.TEST_PASS.value, MERGE])
    for strategy in REGISTRY:
        if strategy not in (*S1_VARIANTS, Strategy.GENERATE_TESTS):
            g.add_edge(strategy.value, MERGE)
    g.add_edge(MERGE, END)
    return g.compile(name="sejury")
