"""SQLite store: one row per judged attempt, written as soon as it is judged (resumable).

A run directory holds one store. Attempts are keyed by (solver, sample_id, attempt), so a run
killed at any point and started again finishes only what is missing: no duplicate, no loss.
Attempts judged ``infra-error`` are retried on resume.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

from truepass import sqlitedb
from truepass.records import AttemptRecord
from truepass.vocabulary import Verdict

SCHEMA = """
CREATE TABLE IF NOT EXISTS attempts (
    solver TEXT NOT NULL,
    sample_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    verdict TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (solver, sample_id, attempt)
);
CREATE TABLE IF NOT EXISTS sample_checks (
    suite_hash TEXT NOT NULL,
    sample_id TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (suite_hash, sample_id)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class Store:
    """The attempts of one run directory. Safe to share between the threads of one process."""

    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlitedb.connect(path, threads=True)
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def done_keys(self) -> set[tuple[str, str, int]]:
        """Keys of attempts that need no more work (everything but infra errors)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT solver, sample_id, attempt FROM attempts WHERE verdict != ?",
                (Verdict.INFRA_ERROR.value,),
            ).fetchall()
        return {(s, i, a) for s, i, a in rows}

    def put(self, record: AttemptRecord) -> None:
        """Write (or replace, for a retried infra error) one attempt, durably."""
        self.put_many([record])

    def put_many(self, records: list[AttemptRecord]) -> None:
        """Write (or replace) attempts in one transaction: all of them or, if truepass dies
        while writing, none (they are judged again on resume)."""
        if not records:
            return
        rows = [
            (r.solver, r.sample_id, r.attempt, r.verdict.value, r.model_dump_json())
            for r in records
        ]
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.executemany("INSERT OR REPLACE INTO attempts VALUES (?, ?, ?, ?, ?)", rows)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def records(self) -> Iterator[AttemptRecord]:
        """Every attempt, ordered by solver, sample and attempt."""
        with self._lock:
            rows = self._db.execute(
                "SELECT record FROM attempts ORDER BY solver, sample_id, attempt"
            ).fetchall()
        for (raw,) in rows:
            yield AttemptRecord.model_validate_json(raw)

    def get_check(self, suite_hash: str, sample_id: str) -> dict | None:  # type: ignore[type-arg]
        with self._lock:
            row = self._db.execute(
                "SELECT record FROM sample_checks WHERE suite_hash=? AND sample_id=?",
                (suite_hash, sample_id),
            ).fetchone()
        return json.loads(row[0]) if row else None

    def put_check(self, suite_hash: str, sample_id: str, record: dict) -> None:  # type: ignore[type-arg]
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO sample_checks VALUES (?, ?, ?)",
                (suite_hash, sample_id, json.dumps(record)),
            )
