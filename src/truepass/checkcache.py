"""Sample checks shared by every run on this machine: a sample is checked once per suite version,
judge configuration and environment, not once per run directory.

A sample check (the reference solution run against the sample's tests; for codegen, the
canonical solution's outputs and CPU times) depends only on the sample, the judge configuration
and the machine it ran on. Runs keep their own copy in their store (a run directory stays
self-contained and resumable); this cache lets a new run directory start from the checks an
earlier run made, as EvalPlus keeps its ground truth in ``~/.cache/evalplus``.

The key is (environment, suite content hash, sample id). The environment is a hash of the
truepass, Python and key package versions, every installed distribution's name and version
(their ``.dist-info`` names), truepass's own code (a hash of its Python files, so that an edited
checkout, committed or not, checks again), the machine (host name and architecture), the sandbox
tier and the judge configuration: change any of them and the samples are checked again. Where
the cache lives: ``$TRUEPASS_CHECK_CACHE`` (a file path, or ``off``), else
``$XDG_CACHE_HOME/truepass/checks.sqlite`` (XDG default ``~/.cache``). A cache that cannot be
opened is skipped with a note in the run's manifest: it only ever saves time. Infra errors are
never cached."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import site
import sqlite3
import threading
from pathlib import Path
from typing import Any

from truepass import sqlitedb
from truepass.paths import user_cache_dir

ENV = "TRUEPASS_CHECK_CACHE"
OFF = ("off", "none", "0", "false", "no")
BUSY_TIMEOUT_S = 30.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS checks (
    environment TEXT NOT NULL,
    suite_hash TEXT NOT NULL,
    sample_id TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (environment, suite_hash, sample_id)
);
"""


def default_path() -> Path | None:
    """``$TRUEPASS_CHECK_CACHE`` (None when it says ``off``), else
    ``$XDG_CACHE_HOME/truepass/checks.sqlite``."""
    explicit = os.environ.get(ENV, "").strip()
    if explicit:
        return None if explicit.lower() in OFF else Path(explicit).expanduser()
    return user_cache_dir() / "checks.sqlite"


def environment_key(
    judge: dict[str, Any], packages: dict[str, str], tier: str, code: str | None = None
) -> str:
    """sha256 hex of everything besides the sample that a check's outcome depends on
    (``code``: :func:`code_hash` by default; the version string of a checkout does not change
    with every edit)."""
    payload = {
        "judge": judge,
        "packages": packages,
        "tier": tier,
        "code": code_hash() if code is None else code,
        "installed": installed_hash(),
        "machine": [platform.node(), platform.machine(), platform.system()],
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@functools.cache
def code_hash() -> str:
    """sha256 hex of truepass's own Python files (the judges, the sandbox and its worker), as
    installed or checked out: about 100 files, a few milliseconds."""
    root = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@functools.cache
def installed_hash() -> str:
    """sha256 hex of the names of every distribution installed where this Python imports from
    (``NAME-VERSION.dist-info`` in its site directories): a package a suite's tests import that
    is upgraded, downgraded, added or removed changes the key. Listing them costs under 1 ms."""
    names: list[str] = []
    for directory in sorted({*site.getsitepackages(), site.getusersitepackages()}):
        try:
            with os.scandir(directory) as entries:
                names += [e.name for e in entries if e.name.endswith((".dist-info", ".egg-info"))]
        except OSError:
            continue
    return hashlib.sha256("\n".join(sorted(names)).encode()).hexdigest()


class CheckCache:
    """One SQLite file of sample checks, safe to share between processes (WAL, busy timeout)
    and between the threads of one (a lock around one connection)."""

    def __init__(self, path: Path, environment: str) -> None:
        self.path = path
        self.environment = environment
        self.hits = self.misses = 0
        self.error: str | None = None
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlitedb.connect(path, busy_timeout_s=BUSY_TIMEOUT_S, threads=True)
            db.executescript(_SCHEMA)
            self._db = db
        except (OSError, sqlite3.Error) as exc:
            self.error = f"check cache {path} not used: {exc}"

    def get(self, suite_hash: str, sample_id: str) -> dict[str, Any] | None:
        """The cached check record, or None (counted as a hit or a miss)."""
        row = self._query(
            "SELECT record FROM checks WHERE environment=? AND suite_hash=? AND sample_id=?",
            (self.environment, suite_hash, sample_id),
        )
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return json.loads(row[0])  # type: ignore[no-any-return]

    def put(self, suite_hash: str, sample_id: str, record: dict[str, Any]) -> None:
        """Store a check record (replacing an older one of the same key)."""
        self._query(
            "INSERT OR REPLACE INTO checks VALUES (?, ?, ?, ?)",
            (self.environment, suite_hash, sample_id, json.dumps(record)),
        )

    def _query(self, sql: str, args: tuple[str, ...]) -> tuple[Any, ...] | None:
        if self._db is None:
            return None
        with self._lock:
            try:
                row = self._db.execute(sql, args).fetchone()
            except sqlite3.Error as exc:  # a broken or locked cache: stop using it
                self.error = f"check cache {self.path} dropped: {exc}"
                self._db.close()
                self._db = None
                return None
        return row  # type: ignore[no-any-return]

    def describe(self) -> dict[str, object]:
        """What the manifest records: where, hits and misses, and any problem."""
        info: dict[str, object] = {"path": str(self.path), "hits": self.hits,
                                   "misses": self.misses}  # fmt: skip
        if self.error:
            info["error"] = self.error
        return info

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
