"""Retry an operation that may fail transiently."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class TransientError(Exception):
    """A failure worth retrying (a timeout, a 503)."""


def retry(fn: Callable[[], T], attempts: int = 3) -> T:
    """Result of ``fn()``, retrying on TransientError at most ``attempts`` times in all.

    Other exceptions propagate at once; after the last attempt the last TransientError does.
    """
    if attempts < 1:
        raise ValueError("attempts must be at least 1")
    last_error: Exception | None = None
    for _ in range(attempts):
        try:
            return fn()
        except TransientError as exc:
            last_error = exc
    assert last_error is not None
    raise last_error
