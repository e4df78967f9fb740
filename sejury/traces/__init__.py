"""The trace store: every judgment's full trace (sample, team, prompts, replies, sandbox runs,
merge) under a judgment id, in a local SQLite file; and its viewers (``tree`` for the terminal,
``html`` for one standalone page).  Only the store is imported here: the graph's context imports
it, and the viewers import the strategies."""

from __future__ import annotations

from sejury.traces.store import (
    JudgmentSummary,
    StoredJudgment,
    TraceStore,
    default_trace_path,
    new_judgment_id,
)

__all__ = ["JudgmentSummary", "StoredJudgment", "TraceStore", "default_trace_path", "new_judgment_id"]
