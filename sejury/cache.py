"""The strategy-result cache (SQLite), keyed on strategy, prompt version, model and sample hash.

A re-run of the same sample with the same model and prompts makes no LLM call.  Only results
that came from a model reply (scored or unscored) are stored: failures are worth retrying.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path

from sejury.schema import Status, StrategyResult

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    strategy TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    model TEXT NOT NULL,
    sample_hash TEXT NOT NULL,
    created REAL NOT NULL,
    result TEXT NOT NULL
)
"""


def cache_key(*, strategy: str, prompt_version: str, model: str, sample_hash: str,
              extra: str = "") -> str:
    raw = json.dumps([strategy, prompt_version, model, sample_hash, extra])
    return hashlib.sha256(raw.encode()).hexdigest()


class ResultCache:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(_SCHEMA)
            self._db.commit()

    def get(self, key: str) -> StrategyResult | None:
        with self._lock:
            row = self._db.execute("SELECT result FROM results WHERE key = ?", (key,)).fetchone()
        return StrategyResult.model_validate_json(row[0]) if row else None

    def put(self, key: str, result: StrategyResult, *, prompt_version: str, model: str,
            sample_hash: str) -> None:
        if result.status not in (Status.SCORED, Status.UNSCORED):
            return
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, result.strategy.value, prompt_version, model, sample_hash, time.time(),
                 result.model_dump_json()),
            )
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
