"""Split a list of items into numbered pages."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def page_count(total: int, per_page: int) -> int:
    """Number of pages needed to show ``total`` items, ``per_page`` at a time."""
    if per_page <= 0:
        raise ValueError("per_page must be positive")
    return (total + per_page - 1) // per_page


def paginate(items: list[T], page: int, per_page: int) -> list[T]:
    """Items on ``page`` (pages are numbered from 1); an empty list past the last page."""
    if page < 1:
        raise ValueError("pages are numbered from 1")
    if per_page <= 0:
        raise ValueError("per_page must be positive")
    start = page * per_page
    return items[start : start + per_page]
