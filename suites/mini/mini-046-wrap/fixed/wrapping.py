"""Greedy word wrapping."""

from __future__ import annotations


def wrap(text: str, width: int) -> list[str]:
    """Lines of at most ``width`` characters; a longer word gets a line of its own."""
    if width < 1:
        raise ValueError("width must be positive")
    lines: list[str] = []
    current = ""
    for word in text.split():
        if not current:
            current = word
        elif len(current) + 1 + len(word) <= width:
            current += " " + word
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


def fill(text: str, width: int) -> str:
    """The wrapped lines joined with newlines."""
    return "\n".join(wrap(text, width))
