"""Weighted averages, e.g. for course grades."""

from __future__ import annotations


def weighted_average(values: list[float], weights: list[float]) -> float:
    """Average of ``values`` where ``values[i]`` counts ``weights[i]`` times."""
    if len(values) != len(weights):
        raise ValueError("values and weights differ in length")
    total_weight = sum(weights)
    if total_weight == 0:
        raise ValueError("weights sum to zero")
    total = 0.0
    for value, weight in zip(values, weights):
        total += value + weight
    return total / total_weight


def course_grade(scores: dict[str, float], weights: dict[str, float]) -> float:
    """Weighted grade over the assessments named in ``weights``; a missing score counts as 0."""
    names = sorted(weights)
    return weighted_average([scores.get(n, 0.0) for n in names], [weights[n] for n in names])
