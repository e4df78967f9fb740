"""The trace store (SQLite): one row per judgment, keyed on its judgment id.

A row keeps the sample, the whole verdict (its members' traces: every prompt, raw reply, parsed
score, sandbox run, token count and timing) and the settings that shaped it, plus a few columns
to list and filter by.  Each ``put`` commits on its own, so a killed run loses no finished
judgment; ``get`` takes an id or any unique prefix of one (``sejury trace j0k3``).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from sejury import paths
from sejury.errors import InputError, SejuryError
from sejury.schema import Sample, Verdict

_SCHEMA = """
CREATE TABLE IF NOT EXISTS judgments (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    sample_id TEXT NOT NULL,
    task TEXT NOT NULL,
    language TEXT NOT NULL,
    status TEXT NOT NULL,
    score REAL,
    model TEXT NOT NULL,
    seconds REAL NOT NULL,
    sample TEXT NOT NULL,
    verdict TEXT NOT NULL,
    config TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS judgments_created ON judgments (created);
CREATE INDEX IF NOT EXISTS judgments_sample ON judgments (sample_id, created);
CREATE TABLE IF NOT EXISTS rankings (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    kind TEXT NOT NULL,
    problem_id TEXT NOT NULL,
    language TEXT NOT NULL,
    model TEXT NOT NULL,
    seconds REAL NOT NULL,
    body TEXT NOT NULL
);
"""
_SUMMARY = "id, created, sample_id, task, language, status, score, model, seconds"

# Crockford's base32, lower-cased: no i, l, o, u; sorts in the same order as the numbers it encodes
_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
_ID_CHARS = 13  # 65 bits: 42 of milliseconds (until 2109), 23 random
_RANDOM_BITS = 23
_MAX_CANDIDATES = 10
_id_lock = threading.Lock()
_last_id = 0


def new_judgment_id(prefix: str = "j") -> str:
    """``j`` and 13 base32 characters: sortable by time, unique (within a process the random part
    counts up when two ids share a millisecond; across processes 23 random bits keep them apart).
    A ranking's or a comparison's id begins with ``r`` instead."""
    global _last_id
    with _id_lock:
        value = (int(time.time() * 1000) << _RANDOM_BITS) | secrets.randbits(_RANDOM_BITS)
        if value <= _last_id:
            value = _last_id + 1
        _last_id = value
    chars = []
    for _ in range(_ID_CHARS):
        value, digit = divmod(value, 32)
        chars.append(_ALPHABET[digit])
    return prefix + "".join(reversed(chars))


def default_trace_path() -> Path:
    """``~/.cache/sejury/traces.sqlite`` (under ``SEJURY_CACHE_DIR`` when set)."""
    return paths.traces_path()


def env_trace_path() -> Path:
    """Where ``sejury trace`` looks: ``SEJURY_TRACE_PATH`` (the judge's ``trace_path`` setting), else
    the default."""
    return paths.trace_path_named() or default_trace_path()


class StoredJudgment(BaseModel):
    """One judgment as stored: what was judged, the verdict with its full trace, the settings."""

    judgment_id: str
    created: float  # unix time it was stored
    sample: Sample
    verdict: Verdict
    config: dict[str, Any] = Field(default_factory=dict)  # model, team, execute ... (JSON-able)


class StoredRanking(BaseModel):
    """A ranking (``kind`` "rank") or a comparison ("compare") as stored, its trace in ``body``."""

    ranking_id: str
    created: float
    kind: str
    model: str
    body: dict[str, Any]  # the Ranking's or Comparison's JSON, events included


class JudgmentSummary(BaseModel):
    """A row of ``sejury trace --list``."""

    judgment_id: str
    created: float
    sample_id: str
    task: str
    language: str
    status: str
    score: float | None
    model: str
    seconds: float


class RankingSummary(BaseModel):
    """A row of ``sejury trace --list --rankings``."""

    ranking_id: str
    created: float
    kind: str  # "rank" or "compare"
    problem_id: str
    language: str
    model: str
    seconds: float


class TraceStore:
    """Judgments by id in one SQLite file (WAL: readers such as ``sejury trace`` never block a
    judging run).  Safe to share between threads."""

    def __init__(self, path: Path) -> None:
        path = Path(path).expanduser()
        self.path = path
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # committed survives a kill, without an fsync each
            self._db.executescript(_SCHEMA)
            self._db.commit()
        except (OSError, sqlite3.Error) as exc:
            self.close()
            raise SejuryError(f"{path}: not a usable trace store ({exc}); set another trace path") from None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise SejuryError(f"the trace store {self.path} is closed")
        return self._db

    def put(self, sample: Sample, verdict: Verdict, *, config: dict[str, Any] | None = None) -> str:
        """Store a finished judgment under ``verdict.judgment_id`` (committed before it returns;
        storing the same id again replaces it).  Returns the id."""
        jid = verdict.judgment_id
        if not jid:
            raise ValueError("the verdict has no judgment_id: give it one (new_judgment_id()) before storing it")
        row = (jid, time.time(), verdict.sample_id, verdict.task.value, sample.language, verdict.status,
               verdict.score, verdict.model, verdict.seconds, sample.model_dump_json(), verdict.model_dump_json(),
               json.dumps(config or {}, default=str))
        with self._lock:
            db = self._conn()
            db.execute("INSERT OR REPLACE INTO judgments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
            db.commit()
        return jid

    def put_ranking(self, rid: str, kind: str, problem_id: str, language: str, model: str, seconds: float,
                    body: str) -> str:
        """Store a ranking or a comparison under ``rid`` (``new_judgment_id("r")``; ``body``: its
        JSON, events included); returns the id."""
        with self._lock:
            db = self._conn()
            db.execute("INSERT INTO rankings VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (rid, time.time(), kind, problem_id, language, model, seconds, body))
            db.commit()
        return rid

    def get_ranking(self, ref: str) -> StoredRanking:
        """The ranking or comparison whose id is ``ref`` or starts with it."""
        rid, created, kind, model, body = self._find("rankings", "id, created, kind, model, body", ref, "ranking")
        return StoredRanking(ranking_id=rid, created=created, kind=kind, model=model, body=json.loads(body))

    def get(self, ref: str) -> StoredJudgment:
        """The judgment whose id is ``ref`` or starts with it."""
        jid, created, sample, verdict, config = self._find("judgments", "id, created, sample, verdict, config", ref,
                                                          "judgment", listed=True)
        return StoredJudgment(judgment_id=jid, created=created, sample=Sample.model_validate_json(sample),
                              verdict=Verdict.model_validate_json(verdict), config=json.loads(config))

    def recent(self, limit: int = 20, *, sample_id: str | None = None) -> list[JudgmentSummary]:
        """The latest judgments first (of one sample, with ``sample_id``)."""
        where, args = ("WHERE sample_id = ?", [sample_id]) if sample_id is not None else ("", [])
        with self._lock:
            rows = self._conn().execute(
                f"SELECT {_SUMMARY} FROM judgments {where} ORDER BY created DESC, id DESC LIMIT ?",
                (*args, max(limit, 0))).fetchall()
        return [JudgmentSummary(judgment_id=r[0], created=r[1], sample_id=r[2], task=r[3], language=r[4],
                                status=r[5], score=r[6], model=r[7], seconds=r[8]) for r in rows]

    def recent_rankings(self, limit: int = 20) -> list[RankingSummary]:
        """The latest rankings and comparisons first."""
        with self._lock:
            rows = self._conn().execute(
                "SELECT id, created, kind, problem_id, language, model, seconds FROM rankings "
                "ORDER BY created DESC, id DESC LIMIT ?", (max(limit, 0),)).fetchall()
        return [RankingSummary(ranking_id=r[0], created=r[1], kind=r[2], problem_id=r[3], language=r[4], model=r[5],
                               seconds=r[6]) for r in rows]

    def _find(self, table: str, columns: str, ref: str, noun: str, *, listed: bool = False) -> tuple[Any, ...]:
        """The row of ``table`` whose id is ``ref``, else the one whose id starts with it (an error
        naming the candidates when several do).  ``listed``: ``sejury trace --list`` lists them."""
        key = ref.strip().lower()
        if not key:
            raise InputError(f"give a {noun} id (or its first characters)"
                             + ("; `sejury trace --list` lists them" if listed else ""), field=f"{noun} id")
        with self._lock:
            db = self._conn()
            row = db.execute(f"SELECT {columns} FROM {table} WHERE id = ?", (key,)).fetchone()
            rows = [row] if row else db.execute(
                f"SELECT {columns} FROM {table} WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT ?",
                (len(key), key, _MAX_CANDIDATES + 1)).fetchall()
        if not rows:
            raise InputError(f"no {noun} {ref.strip()!r} in {self.path}"
                             + ("; `sejury trace --list` lists the recent ones" if listed else ""), field=f"{noun} id")
        if len(rows) > 1:
            shown = ", ".join(r[0] for r in rows[:_MAX_CANDIDATES])
            more = " ..." if len(rows) > _MAX_CANDIDATES else ""
            raise InputError(f"{ref.strip()!r} is ambiguous: it begins {shown}{more}; give more characters",
                             field=f"{noun} id")
        return tuple(rows[0])

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn().execute("SELECT COUNT(*) FROM judgments").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
