"""Split a list into fixed-size chunks and join them back."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def chunk(seq: list[T], size: int) -> list[list[T]]:
    """Consecutive chunks of ``size`` items; the last chunk may be shorter."""
    if size < 1:
        raise ValueError("size must be at least 1")
    return [seq[i : i + size] for i in range(0, len(seq) + 1, size)]


def flatten(chunks: list[list[T]]) -> list[T]:
    """Concatenate chunks back into one list."""
    out: list[T] = []
    for part in chunks:
        out.extend(part)
    return out
