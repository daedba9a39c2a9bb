"""Statistics for paired binary outcomes: intervals, exact tests, effect sizes, multiplicity.

Everything here is pure (no I/O, no printing) and documented in docs/compare.md. scipy and
statsmodels are imported inside the functions that use them, so importing this module (and the
summary that uses :func:`wilson`) stays cheap.

- :func:`wilson`: Wilson score interval of a proportion (closed form, also for a fractional
  number of successes, e.g. a sum of per-sample means; checked against statsmodels in tests).
- :func:`mcnemar_exact`: exact two-sided McNemar test from the discordant counts (binomial test).
- :func:`paired_bootstrap_ci`: seeded paired bootstrap interval of a difference of two rates.
- :func:`unpaired_bootstrap_ci`: the same for two independent groups (each resampled on its own).
- :func:`cohens_g` and :func:`discordant_odds_ratio`: effect sizes for paired binary data.
- :func:`holm`: Holm–Bonferroni adjusted p-values.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Sequence
from statistics import NormalDist

CONFIDENCE = 0.95
RESAMPLES = 10_000
_BATCH = 1_000  # bootstrap resamples drawn per batch (bounds memory; part of reproducibility)


def _z(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return NormalDist().inv_cdf(1.0 - (1.0 - confidence) / 2.0)


def wilson(k: float, n: int, confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """Wilson score interval for ``k`` successes out of ``n`` (None when ``n`` is 0).

    Args:
        k: successes; may be fractional (a sum of per-sample success fractions), 0 <= k <= n.
        n: trials (samples).
        confidence: two-sided coverage, 0.95 by default.

    Returns:
        ``(low, high)``, exactly 0 at the low end when ``k`` is 0 and exactly 1 at the high end
        when ``k`` equals ``n``. Same numbers as statsmodels'
        ``proportion_confint(k, n, method="wilson")``.
    """
    if n <= 0:
        return None
    if not 0 <= k <= n:
        raise ValueError(f"k must be within [0, n], got k={k}, n={n}")
    z = _z(confidence)
    p = k / n
    z2n = z * z / n
    denom = 1.0 + z2n
    centre = (p + z2n / 2.0) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2n / (4.0 * n)) / denom
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def mcnemar_exact(b: int, c: int) -> float:
    """Exact two-sided McNemar p-value from the discordant counts.

    Under the null hypothesis (both arms equally good) each discordant pair is equally likely to
    favour either arm, so ``b ~ Binomial(b + c, 1/2)``; the p-value is the two-sided binomial test
    of ``b`` (scipy's ``binomtest``). 1.0 when there are no discordant pairs.

    Args:
        b: pairs where only arm A succeeded.
        c: pairs where only arm B succeeded.
    """
    if b < 0 or c < 0:
        raise ValueError("discordant counts must be non-negative")
    if b + c == 0:
        return 1.0
    from scipy.stats import binomtest

    return float(min(1.0, binomtest(b, b + c, 0.5, alternative="two-sided").pvalue))


def cohens_g(b: int, c: int) -> float | None:
    """Cohen's g for paired binary data: ``max(b, c) / (b + c) - 0.5``, in [0, 0.5].

    How lopsided the discordant pairs are, whichever arm they favour (Cohen's rough guide:
    0.05 small, 0.15 medium, 0.25 large). None when there are no discordant pairs.
    """
    if b + c == 0:
        return None
    return max(b, c) / (b + c) - 0.5


def discordant_odds_ratio(
    b: int, c: int, confidence: float = CONFIDENCE
) -> tuple[float | None, tuple[float, float | None] | None]:
    """Conditional (discordant-pair) odds ratio ``b / c`` with an exact interval.

    The interval comes from the Clopper–Pearson interval ``(pl, pu)`` of ``b / (b + c)``
    transformed by ``p / (1 - p)``; it is the exact conditional interval that matches the exact
    McNemar test.

    Returns:
        ``(ratio, (low, high))``. ``ratio`` is None when ``c`` is 0 (undefined: B never wins
        alone); ``high`` is None when the interval is unbounded above. ``(None, None)`` when
        there are no discordant pairs.
    """
    n = b + c
    if n == 0:
        return None, None
    from scipy.stats import binomtest

    ci = binomtest(b, n, 0.5).proportion_ci(confidence_level=confidence, method="exact")
    pl, pu = float(ci.low), float(ci.high)
    low = pl / (1.0 - pl)
    high = None if pu >= 1.0 else pu / (1.0 - pu)
    return (b / c if c else None), (low, high)


def paired_bootstrap_ci(
    a: Sequence[float],
    b: Sequence[float],
    *,
    resamples: int = RESAMPLES,
    seed: int = 0,
    confidence: float = CONFIDENCE,
) -> tuple[float, float] | None:
    """Percentile interval of ``mean(a) - mean(b)`` from a seeded paired bootstrap.

    Samples (index positions) are drawn with replacement, keeping each sample's two outcomes
    together, ``resamples`` times (scipy's ``bootstrap(paired=True, method="percentile")``).
    The same inputs, ``resamples`` and ``seed`` give the same interval.

    Args:
        a: per-sample outcome of arm A in [0, 1] (1/0, or a mean over attempts).
        b: the same samples, same order, for arm B.
        resamples: number of bootstrap resamples.
        seed: seed of the random generator (``numpy.random.default_rng(seed)``).
        confidence: two-sided coverage.

    Returns:
        ``(low, high)``, or None with fewer than two samples (no spread to resample).
    """
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} != {len(b)}")
    if resamples < 1:
        raise ValueError("resamples must be positive")
    _z(confidence)
    if len(a) < 2:
        return None
    return _mean_difference_ci(a, b, paired=True, resamples=resamples, seed=seed,
                               confidence=confidence)  # fmt: skip


def unpaired_bootstrap_ci(
    a: Sequence[float],
    b: Sequence[float],
    *,
    resamples: int = RESAMPLES,
    seed: int = 0,
    confidence: float = CONFIDENCE,
) -> tuple[float, float] | None:
    """Percentile interval of ``mean(a) - mean(b)`` for two independent groups (public and
    private samples, target and control files): each resample draws ``len(a)`` items of ``a``
    and ``len(b)`` of ``b`` with replacement, each group on its own (scipy's
    ``bootstrap(paired=False, method="percentile")``), from ``default_rng(seed)``.

    Returns:
        ``(low, high)``, or None when either group has fewer than two values.
    """
    if resamples < 1:
        raise ValueError("resamples must be positive")
    _z(confidence)
    if len(a) < 2 or len(b) < 2:
        return None
    return _mean_difference_ci(a, b, paired=False, resamples=resamples, seed=seed,
                               confidence=confidence)  # fmt: skip


def _mean_difference_ci(
    a: Sequence[float], b: Sequence[float], *, paired: bool, resamples: int, seed: int,
    confidence: float,
) -> tuple[float, float]:  # fmt: skip
    """scipy's percentile bootstrap of ``mean(a) - mean(b)``, paired or not, from
    ``default_rng(seed)``; a difference no resample can change is returned as it is."""
    import numpy as np
    from scipy.stats import bootstrap

    xa = np.asarray(a, dtype=float)
    xb = np.asarray(b, dtype=float)
    fixed = (
        np.all(xa - xb == xa[0] - xb[0]) if paired else np.all(xa == xa[0]) and np.all(xb == xb[0])
    )
    if fixed:  # every resample gives the same difference
        d = float(xa[0] - xb[0])
        return d, d

    def diff(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.mean(x, axis=axis) - np.mean(y, axis=axis)

    gen = np.random.default_rng(seed)
    # scipy >= 1.15 names the generator ``rng``; older versions ``random_state``.
    key = "rng" if "rng" in inspect.signature(bootstrap).parameters else "random_state"
    res = bootstrap(
        (xa, xb),
        diff,
        paired=paired,
        vectorized=True,
        n_resamples=resamples,
        batch=_BATCH,
        confidence_level=confidence,
        method="percentile",
        **{key: gen},
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the input order (statsmodels' ``multipletests``).

    Controls the family-wise error rate over the given comparisons: compare each adjusted
    p-value with the usual threshold (0.05).
    """
    if not pvalues:
        return []
    if len(pvalues) == 1:
        return [float(pvalues[0])]
    from statsmodels.stats.multitest import multipletests

    return [float(p) for p in multipletests(list(pvalues), method="holm")[1]]
