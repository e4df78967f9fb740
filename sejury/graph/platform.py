"""The judge graph for the LangGraph server: ``langgraph.json`` points at ``graph`` here, so ``langgraph dev``
serves the same graph the CLI runs, and a ``RemoteGraph`` judges through it::

    from langgraph.pregel.remote import RemoteGraph
    judge = RemoteGraph("sejury", url="http://127.0.0.1:2024")
    judge.invoke({"sample": {"id": "1", "task": "code_generation", "problem": "...", "candidate": "..."}})

The judge's settings come from ``SEJURY_*`` environment variables (``JudgeConfig``); the graph's
input is ``{sample, team}`` and its output ``{verdict}``, as JSON.
"""

from __future__ import annotations

from typing import Any


def make_graph() -> Any:
    """One judge for the server's lifetime; its graph carries the judge's context as default."""
    from sejury.api import Judge
    from sejury.config import JudgeConfig
    from sejury.graph.build import build_graph

    judge = Judge(config=JudgeConfig())
    return build_graph(judge.context, retry_attempts=judge.config.retry_attempts, caller_context=False)


graph = make_graph()  # built once, when the server imports this module, not per run
