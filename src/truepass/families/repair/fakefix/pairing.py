"""Pairing the nodes of the buggy and the patched side of a scope, for every language."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

T = TypeVar("T")


def pair(
    before: Sequence[T], after: Sequence[T], key: Callable[[T], Hashable]
) -> tuple[list[T], list[T]]:
    """Pair items with equal keys (as multisets, in order); return the unpaired (removed, added)."""
    pool: dict[Hashable, list[int]] = defaultdict(list)
    for i, item in enumerate(before):
        pool[key(item)].append(i)
    left = set(range(len(before)))
    added = []
    for item in after:
        bucket = pool.get(key(item))
        if bucket:
            left.discard(bucket.pop(0))
        else:
            added.append(item)
    return [before[i] for i in sorted(left)], added
