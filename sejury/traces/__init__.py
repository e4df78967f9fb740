"""The trace store: every judgment's full trace (sample, team, prompts, replies, sandbox runs,
merge) under a judgment id, in a local SQLite file.  Its viewers are ``sejury.viewers``."""

from __future__ import annotations

from sejury.traces.store import (
    JudgmentSummary,
    StoredJudgment,
    TraceStore,
    default_trace_path,
    new_judgment_id,
)

__all__ = ["JudgmentSummary", "StoredJudgment", "TraceStore", "default_trace_path", "new_judgment_id"]
