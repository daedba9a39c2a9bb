"""Filter values by an inclusive range."""

from __future__ import annotations


def in_range(x: float, lo: float, hi: float) -> bool:
    """True when lo <= x <= hi (both ends included)."""
    return x >= lo and x <= hi


def filter_range(xs: list[float], lo: float, hi: float) -> list[float]:
    """The values of ``xs`` within [lo, hi], in order; ValueError when lo > hi."""
    if lo > hi:
        raise ValueError(f"empty range [{lo}, {hi}]")
    return [x for x in xs if in_range(x, lo, hi)]


def count_outside(xs: list[float], lo: float, hi: float) -> int:
    """How many values fall outside [lo, hi]."""
    return len(xs) - len(filter_range(xs, lo, hi))
