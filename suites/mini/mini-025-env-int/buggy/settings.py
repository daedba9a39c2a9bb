"""Read typed settings from an environment mapping."""

from __future__ import annotations

from collections.abc import Mapping

TRUTHY = {"1", "true", "yes", "on"}


def env_int(env: Mapping[str, str], name: str, default: int) -> int:
    """Integer value of ``name``, ``default`` when unset; ValueError for a malformed value."""
    raw = env.get(name)
    return int(raw.strip())


def env_bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    """True for 1/true/yes/on (any case), False for other values, ``default`` when unset."""
    raw = env.get(name)
    if raw is None:
        return default
    return raw.strip().lower() in TRUTHY
