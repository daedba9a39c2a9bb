"""Binary search over a sorted list."""

from __future__ import annotations


def binary_search(xs: list[int], target: int) -> int:
    """Index of ``target`` in the ascending list ``xs``, or -1 if it is not there."""
    lo, hi = 0, len(xs) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def contains(xs: list[int], target: int) -> bool:
    """True when ``target`` occurs in the ascending list ``xs``."""
    return binary_search(xs, target) != -1
