"""Translate character offsets in a text into (line, column) positions and back."""

from __future__ import annotations


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of the character at ``offset`` (``len(text)`` is allowed)."""
    if not 0 <= offset <= len(text):
        raise IndexError(f"offset {offset} outside a text of length {len(text)}")
    line = text.count("\n", 0, offset)
    last_newline = text.rfind("\n", 0, offset)
    column = offset - last_newline
    return line, column


def offset_of(text: str, line: int, column: int) -> int:
    """Offset of the character at the 1-based ``line`` and ``column``: the inverse of line_col."""
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    return start + column - 1
