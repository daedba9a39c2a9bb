"""Paths: where truepass keeps files of its own on this machine, and the relative paths a sample's
file maps may hold."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path, PurePosixPath


def user_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/truepass`` (XDG default ``~/.cache/truepass``): the response cache, the
    sample-check cache and the report's compiled template live here unless told otherwise."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "truepass"


def check_relative_path(path: str) -> str:
    """Reject absolute paths, ``..`` components and empty names in a suite's file maps."""
    p = PurePosixPath(path)
    if not path or p.is_absolute() or ".." in p.parts or path.startswith("~") or "\\" in path:
        raise ValueError(f"'{path}' must be a relative path inside the sample (no '..', no '/')")
    return str(p)


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on the file ``path`` (created, with its parents), held while the block
    runs: one process at a time (builders of one cache entry, writers of one suite file); the
    others wait. Its modification time is set when taken (a lock in use is not stale)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            os.utime(path)
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
