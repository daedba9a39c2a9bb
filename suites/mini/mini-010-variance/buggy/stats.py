"""Summary statistics of a sample of numbers."""

from __future__ import annotations

import math


def mean(xs: list[float]) -> float:
    """Arithmetic mean; ValueError for an empty sample."""
    if not xs:
        raise ValueError("mean of an empty sample")
    return sum(xs) / len(xs)


def variance(xs: list[float]) -> float:
    """Population variance: the mean squared distance from the mean."""
    m = mean(xs)
    return sum((x - m) * 2 for x in xs) / len(xs)


def stdev(xs: list[float]) -> float:
    """Population standard deviation."""
    return math.sqrt(variance(xs))
