"""Check that brackets in a text are balanced."""

from __future__ import annotations

PAIRS = {")": "(", "]": "[", "}": "{"}


def balanced(text: str) -> bool:
    """True when every (, [ and { is closed, in order, by its partner; other text is ignored."""
    stack: list[str] = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in PAIRS:
            if not stack or stack.pop() != PAIRS[ch]:
                return False
    return not stack


def first_unbalanced(texts: list[str]) -> int:
    """Index of the first unbalanced text, or -1."""
    for i, text in enumerate(texts):
        if not balanced(text):
            return i
    return -1
