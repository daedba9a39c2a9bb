"""Transpose and rotate rectangular grids stored as lists of rows."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def transpose(m: list[list[T]]) -> list[list[T]]:
    """Rows become columns: ``transpose(m)[j][i] == m[i][j]``."""
    if not m:
        return []
    rows, cols = len(m), len(m[0])
    out: list[list[T]] = [[m[0][0]] * cols for _ in range(rows)]
    for i in range(rows):
        for j in range(cols):
            out[j][i] = m[i][j]
    return out


def rotate_clockwise(m: list[list[T]]) -> list[list[T]]:
    """The grid turned 90 degrees clockwise."""
    return [list(reversed(column)) for column in transpose(m)]
