"""Paths: where truepass keeps files of its own on this machine, and the relative paths a sample's
file maps may hold."""

from __future__ import annotations

import os
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
