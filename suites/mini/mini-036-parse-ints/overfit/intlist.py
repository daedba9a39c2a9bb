"""Parse lists of integers from loosely formatted text."""

from __future__ import annotations


def parse_ints(text: str, sep: str = ",") -> list[int]:
    """Integers of a ``sep``-separated list; blank and malformed entries are skipped."""
    values: list[int] = []
    for token in text.split(sep):
        token = token.strip()
        if not token:
            continue
        if token.isdigit():
            values.append(int(token))
    return values


def total(text: str) -> int:
    """Sum of the integers that parse."""
    return sum(parse_ints(text))
