"""The cache of built environments: list them, prune them (``truepass envs``)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from pydantic import BaseModel

from truepass.families.repair.environments.build import Built
from truepass.families.repair.environments.uvtool import envs_dir


class Cached(BaseModel):
    """One built environment in the cache."""

    key: str
    path: Path
    built: Built | None  # None: an interrupted or failed build (no ready.json)
    last_used: float  # seconds since the epoch (ready.json's mtime: touched by every use)


def cached(root: Path | None = None) -> list[Cached]:
    """Every environment directory under ``root`` (default :func:`envs_dir`), newest use first."""
    root = root or envs_dir()
    out: list[Cached] = []
    for path in sorted(p for p in root.glob("*") if p.is_dir()):
        ready = path / "ready.json"
        try:
            built: Built | None = Built.model_validate_json(ready.read_text())
            used = ready.stat().st_mtime
        except (OSError, ValueError):
            built, used = None, path.stat().st_mtime
        out.append(Cached(key=path.name, path=path, built=built, last_used=used))
    return sorted(out, key=lambda c: -c.last_used)


def prune(
    *, unused_days: float | None = None, keys: list[str] | None = None, root: Path | None = None
) -> list[Cached]:
    """Remove environments unused for ``unused_days``, those named in ``keys``, and every
    unfinished one; returns what was removed."""
    now = time.time()
    gone = []
    for entry in cached(root):
        old = unused_days is not None and now - entry.last_used > unused_days * 86400
        if entry.built is None or old or (keys is not None and entry.key in keys):
            shutil.rmtree(entry.path, ignore_errors=True)
            entry.path.with_name(f"{entry.key}.lock").unlink(missing_ok=True)
            gone.append(entry)
    return gone
