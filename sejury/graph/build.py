"""Wiring only; the edges are derived from the strategy specs.

    START -> supervisor --Send--> every member of the first wave: the team's members that no other
             |                    member feeds, and the feeders they need (run once, in the team or not)
             |   e.g. direct, direct_ref, equivalence, reference_analysis, generate_tests, the metrics
             feeder --follow(feeder)--> its followers in this plan, with the feeder's result as `feed`
             |   direct_ref | direct --> rethink (S2);   generate_tests --> test_pass (S5-exec)
             every member -> merge (deferred: runs once, after all members) -> END

In: ``{"sample": Sample, "team": [...] | None}``; out: ``{"verdict": Verdict}``; run settings
(model client, cache, sandbox, team file) travel as the runtime context, ``JudgeContext``.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from sejury.context import JudgeContext
from sejury.graph.member import member_node
from sejury.graph.state import JudgeInput, JudgeOutput, JudgeState
from sejury.graph.supervisor import MERGE, fan_out, follow, make_merge, make_supervisor
from sejury.llm import is_transient
from sejury.strategies import all_specs


def build_graph(context: JudgeContext | None = None, *, retry_attempts: int = 3,
                caller_context: bool = True) -> Any:
    """The compiled judge graph, with a node for every registered strategy.

    ``context`` is the default run context (model client, team, cache ...); a caller may instead
    pass ``context=`` to ``ainvoke``.  Transient model errors are retried ``retry_attempts`` times
    per member by LangGraph's RetryPolicy (whose default would skip our error types).
    ``caller_context=False`` declares no context schema, so a server (the LangGraph server builds
    one from each request) can never hand the graph another model, sandbox or cache.

    >>> graph = build_graph(JudgeContext(llm=client))
    >>> (await graph.ainvoke({"sample": sample}))["verdict"].score
    """
    specs = all_specs()
    retry = RetryPolicy(max_attempts=retry_attempts, initial_interval=1.0, retry_on=is_transient)
    g = StateGraph(JudgeState, context_schema=JudgeContext if caller_context else None,
                   input_schema=JudgeInput, output_schema=JudgeOutput)
    g.add_node("supervisor", make_supervisor(context))
    for s in specs:
        g.add_node(s.value, member_node(s, max_attempts=retry_attempts, default_context=context),
                   retry_policy=retry)
    g.add_node(MERGE, make_merge(context), defer=True)

    g.add_edge(START, "supervisor")
    g.add_conditional_edges("supervisor", fan_out, [s.value for s in specs] + [MERGE])
    followers: dict[str, list[str]] = {}
    for s in specs:
        for feeder in s.feeders:
            followers.setdefault(feeder, []).append(s.value)
    for s in specs:
        if s.value in followers:
            g.add_conditional_edges(s.value, follow(s.strategy), [*followers[s.value], MERGE])
        else:
            g.add_edge(s.value, MERGE)
    g.add_edge(MERGE, END)
    return g.compile(name="sejury")
