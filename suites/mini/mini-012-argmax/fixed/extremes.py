"""Positions of the extreme values of a list."""

from __future__ import annotations


def argmax(xs: list[float]) -> int:
    """Index of the first largest element."""
    if not xs:
        raise ValueError("argmax of an empty sequence")
    best = 0
    for i in range(1, len(xs)):
        if xs[i] > xs[best]:
            best = i
    return best


def argmin(xs: list[float]) -> int:
    """Index of the first smallest element."""
    if not xs:
        raise ValueError("argmin of an empty sequence")
    lowest = 0
    for i in range(1, len(xs)):
        if xs[i] < xs[lowest]:
            lowest = i
    return lowest
