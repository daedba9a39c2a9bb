"""Look up dotted keys such as "db.pool.size" in nested configuration dicts."""

from __future__ import annotations

from typing import Any


def get_path(config: dict[str, Any], path: str, default: Any = None) -> Any:
    """Value at the dotted ``path``, or ``default`` when any part of it is missing."""
    node: Any = config
    for key in path.split("."):
        node = node[key]
    return node


def get_int(config: dict[str, Any], path: str, default: int) -> int:
    """Integer value at ``path`` (strings such as "8080" are converted)."""
    return int(get_path(config, path, default))
