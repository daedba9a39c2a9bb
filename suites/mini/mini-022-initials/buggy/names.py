"""Format personal names with an optional middle name."""

from __future__ import annotations


def full_name(first: str, last: str, middle: str | None = None) -> str:
    """Return "First M. Last", or "First Last" without a middle name."""
    if middle:
        return f"{first} {middle[0].upper()}. {last}"
    return f"{first} {last}"


def initials(first: str, last: str, middle: str | None = None) -> str:
    """Upper-case initials of the parts that are present, e.g. "AKL"."""
    parts = [first, middle, last]
    return "".join(p[0].upper() for p in parts)
