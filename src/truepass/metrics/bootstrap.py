"""Seeded percentile-bootstrap interval of a mean (per-answer text scores, label correctness).

Same scheme as pass@k's interval (metrics/passk.py): resample the values with replacement,
``resamples`` times, from numpy's ``default_rng(seed)``, and take the percentiles of the resampled
means. The same values, seed and settings always give the same interval. docs/metrics.md.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
    if len(values) == 0:
        return None
    import numpy as np

    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    for start in range(0, resamples, _BATCH):
        size = min(_BATCH, resamples - start)
        idx = rng.integers(0, len(data), size=(size, len(data)))
        means[start : start + size] = data[idx].mean(axis=1)
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(means, [tail, 100.0 - tail])
    return float(low), float(high)
