"""pass@k with the unbiased estimator of Chen et al. (2021)."""

from __future__ import annotations

import functools
from math import comb

STANDARD_K = (1, 2, 5, 10, 20, 50, 100)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of k samples drawn from n (c of them correct) is correct:
    ``1 - C(n-c, k) / C(n, k)``. Requires ``0 <= c <= n`` and ``1 <= k <= n``."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def mean_pass_at_k(counts: list[tuple[int, int]], k: int) -> float | None:
    """Mean pass@k over problems given as (n, c); None when some problem has fewer than k."""
    if not counts or any(n < k for n, _ in counts):
        return None
    return sum(pass_at_k(n, c, k) for n, c in counts) / len(counts)


def pass_at_ks(counts: list[tuple[int, int]]) -> dict[str, float]:
    """pass@k for every standard k that every problem supports."""
    out = {}
    for k in STANDARD_K:
        value = mean_pass_at_k(counts, k)
        if value is None:
            break
        out[f"pass@{k}"] = round(value, 4)
    return out


def pass_at_k_interval(
    counts: list[tuple[int, int]], k: int, *, resamples: int = 2000, seed: int = 0
) -> list[float] | None:
    """95% percentile-bootstrap interval of mean pass@k, resampling problems (seeded, so the
    same counts always give the same interval). None when some problem has fewer than k."""
    if not counts or any(n < k for n, _ in counts):
        return None
    import numpy as np

    values = np.array([pass_at_k(n, c, k) for n, c in counts])
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(values), size=(resamples, len(values)))
    means = values[idx].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return [round(float(low), 4), round(float(high), 4)]


def pass_at_ks_with_ci(counts: list[tuple[int, int]]) -> dict[str, list[float]]:
    """The bootstrap interval of every pass@k that :func:`pass_at_ks` reports (seeded, so the
    same counts give the same intervals: a run's summary and its report compute them once)."""
    return {key: list(ci) for key, ci in _intervals(tuple(counts)).items()}


@functools.lru_cache(maxsize=64)
def _intervals(counts: tuple[tuple[int, int], ...]) -> dict[str, list[float]]:
    out, per_problem = {}, list(counts)
    for key in pass_at_ks(per_problem):
        ci = pass_at_k_interval(per_problem, int(key.removeprefix("pass@")))
        if ci is not None:
            out[key] = ci
    return out
