"""Differences between two dictionaries."""

from __future__ import annotations

from typing import Any


def dict_diff(old: dict[str, Any], new: dict[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """(added, removed, changed) keys going from ``old`` to ``new``, each sorted."""
    added = sorted(new.keys() - old.keys())
    removed = sorted(old.keys() - new.keys())
    changed = sorted(k for k in old.keys() & new.keys() if old[k] != new[k])
    return removed, added, changed


def describe(old: dict[str, Any], new: dict[str, Any]) -> str:
    """One line such as "+a -b ~c" (empty when nothing differs)."""
    added, removed, changed = dict_diff(old, new)
    marks = [f"+{k}" for k in added] + [f"-{k}" for k in removed] + [f"~{k}" for k in changed]
    return " ".join(marks)
