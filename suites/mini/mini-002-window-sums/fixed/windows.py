"""Sliding-window sums and moving averages over a list of numbers."""

from __future__ import annotations


def window_sums(values: list[float], k: int) -> list[float]:
    """Sum of every run of ``k`` consecutive values, left to right.

    There are ``len(values) - k + 1`` windows; none when there are fewer than ``k`` values.
    """
    if k <= 0:
        raise ValueError("window size must be positive")
    return [sum(values[i : i + k]) for i in range(len(values) - k + 1)]


def moving_average(values: list[float], k: int) -> list[float]:
    """Mean of every window of ``k`` consecutive values."""
    return [total / k for total in window_sums(values, k)]
