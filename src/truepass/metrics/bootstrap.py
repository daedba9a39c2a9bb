"""Seeded percentile-bootstrap intervals: of a mean (per-answer text scores, label
correctness), and of any statistic of resampled items (precision, recall, F1).

Same scheme as pass@k's interval (metrics/passk.py): resample the values with replacement,
``resamples`` times, from numpy's ``default_rng(seed)``, and take the percentiles of the resampled
means. The same values, seed and settings always give the same interval. docs/metrics.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

_BATCH = 1_000  # resamples drawn per batch (bounds memory; part of reproducibility)


def bootstrap_ci(
    values: Sequence[float], *, resamples: int = 1000, seed: int = 0, confidence: float = 0.95
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of ``mean(values)``; None for no values.

    Args:
        values: one number per item (an answer's BLEU, 1.0/0.0 for a right/wrong label, ...).
        resamples: bootstrap resamples (at least 1).
        seed: seed of numpy's ``default_rng``.
        confidence: two-sided coverage in (0, 1); 0.95 takes the 2.5th and 97.5th percentiles
            (numpy's default linear interpolation).

    Returns:
        ``(low, high)``, with ``low <= mean(values) <= high`` in all but degenerate cases; a
        single value or identical values give ``(v, v)``.
    """
    if len(values) == 0:
        _check(resamples, confidence)
        return None
    import numpy as np

    data = np.asarray(values, dtype=float)
    out = bootstrap_cis(
        len(data), lambda idx: {"mean": data[idx].mean(axis=1)},
        resamples=resamples, seed=seed, confidence=confidence,
    )  # fmt: skip
    return out["mean"]


def bootstrap_cis(
    n: int,
    statistics: Callable[[np.ndarray], dict[str, np.ndarray]],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap intervals of statistics of ``n`` items that are not means (F1,
    precision, ...): ``statistics`` gets a (resamples, n) matrix of item indices, one resample
    per row, and returns each statistic's value per row. The draws are those of
    :func:`bootstrap_ci` for the same ``n``, seed and settings, so a mean gets the same interval
    either way. Empty for ``n == 0``."""
    _check(resamples, confidence)
    if n == 0:
        return {}
    import numpy as np

    rng = np.random.default_rng(seed)
    values: dict[str, np.ndarray] = {}
    for start in range(0, resamples, _BATCH):
        size = min(_BATCH, resamples - start)
        idx = rng.integers(0, n, size=(size, n))
        for name, got in statistics(idx).items():
            values.setdefault(name, np.empty(resamples))[start : start + size] = got
    tail = (1.0 - confidence) / 2.0 * 100.0
    out: dict[str, tuple[float, float]] = {}
    for name, got in values.items():
        low, high = np.percentile(got, [tail, 100.0 - tail])
        out[name] = (float(low), float(high))
    return out


def _check(resamples: int, confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
