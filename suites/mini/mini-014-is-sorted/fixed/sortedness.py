"""Checks for sorted order."""

from __future__ import annotations


def is_sorted(xs: list[float], reverse: bool = False) -> bool:
    """True when ``xs`` is non-decreasing (non-increasing with ``reverse=True``)."""
    pairs = list(zip(xs, xs[1:]))
    if reverse:
        return all(b <= a for a, b in pairs)
    return all(a <= b for a, b in pairs)


def first_unsorted(xs: list[float]) -> int:
    """Index of the first element smaller than the one before it, or -1 if there is none."""
    for i in range(1, len(xs)):
        if xs[i] < xs[i - 1]:
            return i
    return -1
