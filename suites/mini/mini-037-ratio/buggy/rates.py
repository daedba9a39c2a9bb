"""Conversion rates that tolerate pages without visits."""

from __future__ import annotations


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator, or None when the denominator is zero."""
    return numerator / denominator


def conversion_rates(stats: dict[str, tuple[int, int]]) -> dict[str, float | None]:
    """Conversions per visit for each page, rounded to 3 places (None for pages without visits)."""
    rates: dict[str, float | None] = {}
    for page, (conversions, visits) in stats.items():
        r = ratio(conversions, visits)
        rates[page] = None if r is None else round(r, 3)
    return rates
