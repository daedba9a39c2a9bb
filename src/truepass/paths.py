"""Where truepass keeps files of its own on this machine."""

from __future__ import annotations

import os
from pathlib import Path


def user_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/truepass`` (XDG default ``~/.cache/truepass``): the response cache, the
    sample-check cache and the report's compiled template live here unless told otherwise."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "truepass"
