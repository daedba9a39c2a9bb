"""Fields every family's samples share: the leakage tier and relative paths inside a sample."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Literal

Leakage = Literal["public-old", "public-recent", "private"]


def check_relative_path(path: str) -> str:
    """Reject absolute paths, ``..`` components and empty names in a suite's file maps."""
    p = PurePosixPath(path)
    if not path or p.is_absolute() or ".." in p.parts or path.startswith("~") or "\\" in path:
        raise ValueError(f"'{path}' must be a relative path inside the sample (no '..', no '/')")
    return str(p)
