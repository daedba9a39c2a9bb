"""Insertion points in sorted lists (like bisect_left)."""

from __future__ import annotations


def search_insert(xs: list[int], target: int) -> int:
    """Leftmost index where ``target`` is, or where inserting it keeps ``xs`` sorted."""
    lo, hi = 0, len(xs) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo


def insert_sorted(xs: list[int], value: int) -> list[int]:
    """A sorted copy of ``xs`` with ``value`` added."""
    i = search_insert(xs, value)
    return xs[:i] + [value] + xs[i:]
