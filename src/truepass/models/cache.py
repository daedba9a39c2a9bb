"""The response cache: every successful completion, keyed by what produced it.

Key = sha256 of the canonical JSON (sorted keys, compact separators) of the model id (backend and
model, e.g. ``openai:gpt-4o-mini``), every generation parameter (the tools offered included, when
there are any), the messages and the attempt index. A rerun of the same run therefore makes no
model calls, while the n attempts of a pass@k series stay n distinct samples. Failures are
never stored.

One SQLite file (default ``$XDG_CACHE_HOME/truepass/responses.sqlite``, i.e.
``~/.cache/truepass/responses.sqlite``; env ``TRUEPASS_CACHE`` or a path argument override it), in
WAL mode with a busy timeout so that threads and concurrent processes can share it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from truepass import sqlitedb
from truepass.errors import InputError
from truepass.models.base import Completion, GenerationParams, Message, Model, ModelUnavailable
from truepass.paths import user_cache_dir

log = logging.getLogger(__name__)

BUSY_TIMEOUT_S = 60.0
_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    completion TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS responses_model ON responses(model);
"""


def default_cache_path() -> Path:
    """``$TRUEPASS_CACHE``, else ``$XDG_CACHE_HOME/truepass/responses.sqlite`` (XDG default
    ``~/.cache``)."""
    explicit = os.environ.get("TRUEPASS_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    return user_cache_dir() / "responses.sqlite"


def cache_key(
    model_id: str, params: GenerationParams, messages: list[Message], attempt: int
) -> str:
    """sha256 hex of the canonical JSON of everything that determines an answer."""
    payload = {
        "model": model_id,
        # without tools, the key is what it was before tool calls existed
        "params": params.model_dump(
            mode="json", exclude={"tools"} if params.tools is None else None
        ),
        "messages": messages,
        "attempt": attempt,
    }
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ResponseCache:
    """A thread- and process-safe SQLite store of completions (one connection per thread)."""

    def __init__(self, path: str | os.PathLike[str] | None = None):
        """Open (creating if needed) the cache at ``path`` (default: :func:`default_cache_path`);
        InputError when it cannot be created or is not a cache."""
        self.path = Path(path).expanduser() if path is not None else default_cache_path()
        self._local = threading.local()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn().executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise InputError(
                f"cannot open the response cache: {exc}", location=str(self.path)
            ) from None

    def __repr__(self) -> str:
        return f"ResponseCache({str(self.path)!r})"

    def _conn(self) -> sqlite3.Connection:
        """This thread's connection; a forked child opens its own (SQLite handles must not
        cross a fork)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None or getattr(self._local, "pid", None) != os.getpid():
            conn = sqlitedb.connect(self.path, busy_timeout_s=BUSY_TIMEOUT_S)
            self._local.conn = conn
            self._local.pid = os.getpid()
        return conn

    def get(self, key: str) -> Completion | None:
        """The stored completion for ``key``, or None."""
        row = (
            self._conn()
            .execute("SELECT completion FROM responses WHERE key = ?", (key,))
            .fetchone()
        )
        return None if row is None else Completion.model_validate_json(row[0])

    def put(self, key: str, completion: Completion) -> None:
        """Store ``completion`` under ``key`` (its ``cached`` flag is stored as false)."""
        blob = completion.model_copy(update={"cached": False}).model_dump_json()
        self._conn().execute(
            "INSERT OR REPLACE INTO responses (key, model, completion, created) VALUES (?,?,?,?)",
            (key, completion.model, blob, time.time()),
        )

    def has_model(self, model: str) -> bool:
        """Whether any completion of model id ``model`` is stored (an indexed lookup)."""
        row = (
            self._conn()
            .execute("SELECT 1 FROM responses WHERE model = ? LIMIT 1", (model,))
            .fetchone()
        )
        return row is not None

    def stats(self) -> dict[str, Any]:
        """``{"path", "entries", "bytes", "by_model": {model: {"entries", "bytes"}}}``: ``bytes``
        at the top is the size on disk (database and WAL), per model the stored payload."""
        rows = (
            self._conn()
            .execute(
                "SELECT model, COUNT(*), COALESCE(SUM(LENGTH(completion)), 0) "
                "FROM responses GROUP BY model ORDER BY model"
            )
            .fetchall()
        )
        on_disk = sum(
            p.stat().st_size
            for p in (self.path, self.path.with_name(self.path.name + "-wal"))
            if p.exists()
        )
        return {
            "path": str(self.path),
            "entries": sum(r[1] for r in rows),
            "bytes": on_disk,
            "by_model": {r[0]: {"entries": r[1], "bytes": r[2]} for r in rows},
        }

    def clear(self, model: str | None = None) -> int:
        """Delete every entry (or those of model id ``model``); returns how many went."""
        conn = self._conn()
        if model is None:
            n = conn.execute("DELETE FROM responses").rowcount
        else:
            n = conn.execute("DELETE FROM responses WHERE model = ?", (model,)).rowcount
        if n:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return n

    def close(self) -> None:
        """Close this thread's connection (other threads' close when they end)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


class CachedModel:
    """A :class:`Model` that answers from a :class:`ResponseCache` when it can.

    ``calls`` counts real calls to the wrapped model, ``hits`` answers replayed from the cache.
    """

    def __init__(self, model: Model, cache: ResponseCache):
        """Wrap ``model``; its ``id`` (and so its cache entries) is unchanged."""
        self.model = model
        self.cache = cache
        self.id = model.id
        self.calls = 0
        self.hits = 0
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"CachedModel({self.model!r}, {self.cache!r})"

    @property
    def context_window(self) -> int:
        """The wrapped model's (read lazily: a local model loads on first use)."""
        return self.model.context_window

    def count_tokens(self, text: str) -> int:
        """The wrapped model's count."""
        return self.model.count_tokens(text)

    def preflight(self) -> None:
        """The wrapped model's preflight, forgiven when the cache holds answers of this model.

        A rerun answered from the cache must work offline, and which requests a run will make is
        not known in advance. So when the wrapped model is unavailable but the cache has entries
        for its id, this logs a warning and returns: requests the cache answers work, and a
        request it cannot answer fails at its first try with the same
        :class:`ModelUnavailable` (never retried). With no entry for the model nothing can work
        and the error is raised.
        """
        try:
            self.model.preflight()
        except ModelUnavailable as err:
            if not self.cache.has_model(self.id):
                raise
            log.warning(
                "%s; answering from the response cache %s only: a request it cannot answer "
                "will fail",
                err, self.cache.path,
            )  # fmt: skip

    def complete(
        self, messages: list[Message], params: GenerationParams, attempt: int = 0
    ) -> Completion:
        """A stored completion (``cached=True``, no call), else the model's, then stored."""
        key = cache_key(self.id, params, messages, attempt)
        hit = self.cache.get(key)
        if hit is not None:
            with self._lock:
                self.hits += 1
            return hit.model_copy(update={"cached": True})
        with self._lock:
            self.calls += 1
        completion = self.model.complete(messages, params, attempt)
        self.cache.put(key, completion)
        return completion
