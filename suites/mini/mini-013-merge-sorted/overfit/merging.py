"""The merge step of merge sort, and merge sort itself (both stable)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def _identity(x: Any) -> Any:
    return x


def merge(left: list[T], right: list[T], key: Callable[[T], Any] = _identity) -> list[T]:
    """Merge two lists sorted by ``key``; of equal keys, items from ``left`` come first."""
    out: list[T] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if key(left[i]) < key(right[j]):
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    out.extend(left[i:])
    out.extend(right[j:])
    return out


def merge_sort(items: list[T], key: Callable[[T], Any] = _identity) -> list[T]:
    """A sorted copy of ``items``; equal keys keep their original order."""
    if len(items) <= 1:
        return list(items)
    mid = len(items) // 2
    return merge(merge_sort(items[:mid], key), merge_sort(items[mid:], key), key)
