"""Validate user names for an account system."""

from __future__ import annotations

MIN_LEN = 3
MAX_LEN = 16


def is_valid_username(name: str) -> bool:
    """3-16 ASCII letters, digits and underscores, starting with a letter."""
    if not MIN_LEN <= len(name) <= MAX_LEN:
        return False
    if not name.isascii() or not name[0].isalpha():
        return False
    return all(c.isalnum() for c in name)


def invalid_names(names: list[str]) -> list[str]:
    """The names that are not valid, in their original order."""
    return [n for n in names if not is_valid_username(n)]
