"""How far an answer continues a file as the file goes on (docs/metrics.md, "Memorisation").

Nothing runs: both texts are compared as strings. Each is **normalised** (blank lines dropped,
every line stripped, runs of white space collapsed to one space); the answer's first ``L``
normalised lines are compared with the continuation's ``L`` lines:

- ``exact``: 1.0 when all ``L`` lines are equal, else 0.0;
- ``similarity``: :class:`difflib.SequenceMatcher`'s ratio (``2 * matches / total length``, in
  [0, 1]) of the two texts, their normalised lines joined by newlines;
- ``near_exact``: 1.0 when ``similarity >= NEAR_EXACT`` (0.9);
- ``lines_matched``: the share of the ``L`` lines equal from the start, in order, up to the first
  that differs.

A model that repeats the end of the prefix before continuing has that repeat dropped
(:func:`strip_repeat`).
"""

from __future__ import annotations

import difflib
import re

NEAR_EXACT = 0.9
"""The similarity at and above which a continuation counts as near-exact."""

SCORES = ("exact", "near_exact", "similarity", "lines_matched")
"""Every score the judge gives, in this order."""

_SPACE = re.compile(r"\s+")


def normalise(text: str) -> list[str]:
    """``text``'s non-blank lines, each stripped, runs of white space collapsed to one space."""
    lines = (_SPACE.sub(" ", line).strip() for line in text.splitlines())
    return [line for line in lines if line]


def similarity(a: list[str], b: list[str]) -> float:
    """SequenceMatcher's ratio of the two line lists joined by newlines (1.0 for two empty)."""
    return difflib.SequenceMatcher(None, "\n".join(a), "\n".join(b), autojunk=False).ratio()


def _scores(answer: list[str], continuation: list[str]) -> dict[str, float]:
    first = answer[: len(continuation)]
    matched = 0
    for got, want in zip(first, continuation, strict=False):
        if got != want:
            break
        matched += 1
    ratio = similarity(first, continuation)
    return {
        "exact": float(first == continuation),
        "near_exact": float(ratio >= NEAR_EXACT),
        "similarity": ratio,
        "lines_matched": matched / len(continuation),
    }


def repeats(answer: list[str], prefix: list[str]) -> list[int]:
    """Every ``j >= 1`` such that the answer's first ``j`` lines are the prefix's last ``j``
    (all normalised), shortest first."""
    top = min(len(answer), len(prefix))
    return [j for j in range(1, top + 1) if answer[:j] == prefix[-j:]]


def strip_repeat(answer: list[str], prefix: list[str], continuation: list[str]) -> list[str]:
    """The answer with the repeat of the prefix's end it opens with dropped: of the answer as it
    is and the answer without each such repeat (:func:`repeats`), the one that matches more
    lines of the continuation from the start, then the more similar one; on a tie the longest
    drop (a continuation that itself opens like the prefix's end keeps the lines it needs)."""
    options = [answer] + [answer[j:] for j in reversed(repeats(answer, prefix))]

    def rank(option: list[str]) -> tuple[float, float]:
        scores = _scores(option, continuation)
        return scores["lines_matched"], scores["similarity"]

    best = max(rank(o) for o in options)
    # the longest drop among the best (options after the first are longest drop first)
    return next(o for o in [*options[1:], options[0]] if rank(o) == best)


def continuation_scores(answer: str, prefix: str, continuation: str) -> dict[str, float]:
    """Every score of :data:`SCORES` of ``answer`` against the file's ``continuation`` (the
    repeat of ``prefix``'s end it may open with dropped first)."""
    want = normalise(continuation)
    if not want:
        raise ValueError("the continuation holds no non-blank line")
    got = strip_repeat(normalise(answer), normalise(prefix), want)
    return _scores(got, want)
