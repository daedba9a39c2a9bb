"""The suites shipped with truepass (``suites/bundled/NAME/suite.jsonl``), by name, without
loading them."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def bundled_dir() -> Path:
    """Directory holding the bundled suites (package data)."""
    return Path(str(resources.files("truepass.suites") / "bundled"))


def bundled_suites() -> list[str]:
    """Names of the suites shipped with truepass."""
    root = bundled_dir()
    return sorted(p.name for p in root.iterdir() if (p / "suite.jsonl").is_file())
