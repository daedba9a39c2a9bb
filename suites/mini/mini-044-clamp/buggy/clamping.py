"""Clamp numbers into a range."""

from __future__ import annotations


def clamp(x: float, lo: float, hi: float) -> float:
    """``x`` limited to [lo, hi]; ValueError when lo > hi."""
    if lo > hi:
        raise ValueError(f"empty range [{lo}, {hi}]")
    if x < lo:
        return lo
    if x > hi:
        return lo
    return x


def clamp_all(xs: list[float], lo: float, hi: float) -> list[float]:
    """Every value of ``xs`` clamped to [lo, hi]."""
    return [clamp(x, lo, hi) for x in xs]
