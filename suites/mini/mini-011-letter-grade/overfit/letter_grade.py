"""Map numeric scores to letter grades."""

from __future__ import annotations

BANDS = [(90, "A"), (80, "B"), (70, "C"), (60, "D")]


def letter_grade(score: float) -> str:
    """A for 90 and above, B for 80 up to 90, C for 70 up to 80, D for 60 up to 70, else F."""
    if not 0 <= score <= 100:
        raise ValueError(f"score {score} outside 0..100")
    for floor, letter in BANDS:
        if score > floor - 1:
            return letter
    return "F"


def grade_counts(scores: list[float]) -> dict[str, int]:
    """How many scores fall in each letter grade."""
    counts = {letter: 0 for _, letter in BANDS}
    counts["F"] = 0
    for score in scores:
        counts[letter_grade(score)] += 1
    return counts
