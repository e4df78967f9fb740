"""The result cache writes from a thread: reads see what is queued, ``flush`` and ``close`` commit
it, and a verdict leaves the graph only once its members' results are committed."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sejury import Sample
from sejury.cache import ResultCache
from sejury.schema import Status, Strategy, StrategyResult


def result(score: float) -> StrategyResult:
    return StrategyResult(strategy=Strategy("direct"), status=Status.SCORED, score=score, reasons=["r"])


def committed(path: Path) -> int:
    """Rows another connection sees (what a killed process would have left)."""
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT COUNT(*) FROM results").fetchone()[0])


def test_reads_see_queued_writes_and_flush_commits_them(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "r.sqlite")
    for i in range(50):
        cache.put(f"k{i}", result(i), prompt_version="p", model="m", sample_hash="h")
    got = cache.get("k49")
    assert got is not None and got.score == 49  # queued or committed: the same answer
    cache.flush()
    assert committed(tmp_path / "r.sqlite") == 50 and len(cache) == 50
    cache.put("k0", result(99), prompt_version="p", model="m", sample_hash="h")  # a key put again: the newer wins
    assert cache.get("k0").score == 99  # type: ignore[union-attr]
    failed = StrategyResult(strategy=Strategy("direct"), status=Status.FAILED)
    cache.put("bad", failed, prompt_version="p", model="m", sample_hash="h")  # failures are not cached
    cache.close()
    again = ResultCache(tmp_path / "r.sqlite")
    assert len(again) == 50 and again.get("k0").score == 99 and again.get("bad") is None  # type: ignore[union-attr]
    again.close()


def test_a_verdict_leaves_the_graph_with_its_members_committed(
        tmp_path: Path, codegen: Sample, make_judge: Callable[..., Any]) -> None:
    judge, _ = make_judge(team="S1,S3", cache=tmp_path / "r.sqlite", traces=False)
    verdict = judge.judge(codegen)
    assert verdict.llm_calls == 2
    assert committed(tmp_path / "r.sqlite") == 2  # before close: a kill now would keep both
    assert judge.judge(codegen).llm_calls == 0  # and the next judgment reads them
    judge.close()
