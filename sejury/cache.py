"""The strategy-result cache (SQLite), keyed on strategy, prompt version, model and sample hash.

A re-run of the same sample with the same model and prompts makes no LLM call.  Only results
that came from a model reply (scored or unscored) are stored: failures are worth retrying.

Writes leave the event loop: ``put`` hands the row to a writer thread, which commits what has
queued up in one transaction (WAL, no fsync per commit: a commit survives the process being
killed); until then ``get`` answers from the queue.  ``flush`` returns once everything put before
it is committed: the graph's merge node flushes before a verdict leaves it, so a killed batch has
every member of every verdict it wrote in the cache.
"""

from __future__ import annotations

import hashlib
import json
import logging
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


_INSERT = "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)"
Row = tuple[str, str, str, str, str, float, str]
log = logging.getLogger(__name__)


class ResultCache:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()  # the reading connection
        self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(_SCHEMA)
            self._db.commit()
        self._cond = threading.Condition()  # the writer's queue and counters
        self._rows: list[Row] = []  # put, not yet taken by the writer
        self._pending: dict[str, str] = {}  # key -> result JSON, put and not yet committed
        self._queued = 0
        self._written = 0
        self._closing = False
        self._error: sqlite3.Error | None = None
        self._writer: threading.Thread | None = None

    def get(self, key: str) -> StrategyResult | None:
        raw = self.get_raw(key)
        return StrategyResult.model_validate_json(raw) if raw is not None else None

    def get_raw(self, key: str) -> str | None:
        """The JSON stored under ``key`` (a strategy's result, or a model reply: ``put_raw``)."""
        with self._cond:
            queued = self._pending.get(key)
        if queued is not None:
            return queued
        with self._lock:
            row = self._db.execute("SELECT result FROM results WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def put(self, key: str, result: StrategyResult, *, prompt_version: str, model: str,
            sample_hash: str) -> None:
        if result.status not in (Status.SCORED, Status.UNSCORED):
            return
        self._put((key, result.strategy.value, prompt_version, model, sample_hash, time.time(),
                   result.model_dump_json()))

    def put_raw(self, key: str, kind: str, payload: str, *, model: str) -> None:
        """Keep other JSON under ``key`` (e.g. ``kind`` "reply:write_tests": a step's model reply)."""
        self._put((key, kind, "", model, "", time.time(), payload))

    def _put(self, row: Row) -> None:
        key = row[0]
        with self._cond:
            self._raise()
            if self._closing:
                raise sqlite3.ProgrammingError(f"the result cache {self.path} is closed")
            self._rows.append(row)
            self._pending[key] = row[6]
            self._queued += 1
            if self._writer is None:
                self._writer = threading.Thread(target=self._write, name="sejury-cache-writer", daemon=True)
                self._writer.start()
            self._cond.notify_all()

    @property
    def pending(self) -> bool:
        """Whether some result put is not committed yet."""
        with self._cond:
            return self._written < self._queued

    def flush(self) -> None:
        """Return once every result put so far is committed (blocks: call it off the event loop)."""
        with self._cond:
            target = self._queued
            while self._written < target and self._writer is not None and self._writer.is_alive():
                self._cond.wait()
            self._raise()

    def _write(self) -> None:
        db = sqlite3.connect(str(self.path), timeout=30)
        # a commit is written, not fsynced: it survives the process being killed (a lost power
        # supply may take the last few back)
        db.execute("PRAGMA synchronous=NORMAL")
        try:
            while True:
                with self._cond:
                    while not self._rows and not self._closing:
                        self._cond.wait()
                    rows, self._rows = self._rows, []
                if not rows:
                    return  # closing, and nothing left
                error: sqlite3.Error | None = None
                try:
                    db.executemany(_INSERT, rows)
                    db.commit()
                except sqlite3.Error as exc:
                    error = exc
                with self._cond:
                    for r in rows:
                        if self._pending.get(r[0]) is r[6]:
                            del self._pending[r[0]]
                    self._written += len(rows)
                    self._error = self._error or error
                    self._cond.notify_all()
        finally:
            db.close()
            with self._cond:
                self._written = self._queued  # nothing more will be written: no flush waits on
                self._cond.notify_all()

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def __len__(self) -> int:
        self.flush()
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM results WHERE strategy NOT LIKE 'reply:%'").fetchone()[0])

    def close(self) -> None:
        with self._cond:
            self._closing = True
            self._cond.notify_all()
            writer = self._writer
        if writer is not None:
            writer.join()
        with self._cond:
            if self._error is not None:
                log.warning("results were not cached in %s: %s", self.path, self._error)
                self._error = None
        with self._lock:
            self._db.close()
