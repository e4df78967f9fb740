"""The judge graph for the LangGraph server: ``langgraph.json`` points at ``graph`` here, so ``langgraph dev``
serves the same graph the CLI runs, and a ``RemoteGraph`` judges through it::

    from langgraph.pregel.remote import RemoteGraph
    judge = RemoteGraph("sejury", url="http://127.0.0.1:2024")
    judge.invoke({"sample": {"id": "1", "task": "code_generation", "problem": "...", "candidate": "..."}})

The judge's settings come from ``SEJURY_*`` environment variables (``JudgeConfig``); the graph's
input is ``{sample, team}`` and its output ``{verdict}``, as JSON.  ``graph`` is a factory the
server calls when it needs the graph: importing this module starts nothing (no model, no sandbox),
and the first call builds the one judge the server keeps for its lifetime.
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Any

from sejury.api import Judge
from sejury.config import JudgeConfig
from sejury.graph.build import build_graph

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

_lock = threading.Lock()
_built: list[Any] = []  # the compiled graph, once built


def _judge_graph() -> Any:
    with _lock:
        if not _built:
            judge = Judge(config=JudgeConfig())
            _built.append(build_graph(judge.context, retry_attempts=judge.config.retry_attempts,
                                      caller_context=False))
        return _built[0]


async def graph(config: RunnableConfig) -> Any:
    """The judge's graph, built on the first call, in a thread (building opens files and may start
    the model: not on the server's event loop); one judge for the server's lifetime, its graph
    carrying the judge's context as default.  ``config`` is the run's: the judge's settings are
    the server's environment, never the caller's."""
    return _built[0] if _built else await asyncio.to_thread(_judge_graph)
