"""Find items in a sequence by predicate."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def find_first(pred: Callable[[T], bool], items: Sequence[T], default: T | None = None) -> T | None:
    """The first item satisfying ``pred``, or ``default``."""
    for item in items:
        if pred(item):
            return item
    return default


def find_index(pred: Callable[[T], bool], items: Sequence[T]) -> int:
    """Index of the first item satisfying ``pred``, or -1."""
    for i, item in enumerate(items):
        if pred(item):
            return i
    return -1
