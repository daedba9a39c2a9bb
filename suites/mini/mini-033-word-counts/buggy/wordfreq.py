"""Word frequencies of a text."""

from __future__ import annotations

import string
from collections import Counter


def normalize(word: str) -> str:
    """Lower-case ``word`` and strip punctuation from both ends."""
    return word.strip(string.punctuation).lower()


def word_counts(text: str) -> dict[str, int]:
    """Occurrences of each word, case-insensitive, ignoring surrounding punctuation."""
    counts: Counter[str] = Counter()
    for raw in text.split():
        word = normalize(raw)
        if word:
            counts[raw] += 1
    return dict(counts)


def top_words(text: str, n: int) -> list[tuple[str, int]]:
    """The ``n`` most frequent words, ties broken alphabetically."""
    ranked = sorted(word_counts(text).items(), key=lambda kv: (-kv[1], kv[0]))
    return ranked[:n]
