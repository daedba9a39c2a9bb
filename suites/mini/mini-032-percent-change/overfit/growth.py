"""Percentage change between successive values."""

from __future__ import annotations


def percent_change(old: float, new: float) -> float:
    """Change from ``old`` to ``new`` as a percentage of ``|old|`` (negative for a decrease)."""
    if old == 0:
        raise ZeroDivisionError("percent change from zero is undefined")
    return (new - old) / old * 100


def growth_series(values: list[float]) -> list[float]:
    """Percent change between each value and the next, rounded to two places."""
    return [round(percent_change(a, b), 2) for a, b in zip(values, values[1:])]
