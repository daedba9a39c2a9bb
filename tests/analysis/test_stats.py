"""truepass.analysis.stats against scipy/statsmodels on fixed data."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from truepass.analysis.stats import (
    cohens_g,
    discordant_odds_ratio,
    holm,
    mcnemar_exact,
    paired_bootstrap_ci,
    wilson,
)


@pytest.mark.parametrize(
    ("k", "n"), [(0, 1), (1, 1), (0, 10), (10, 10), (3, 10), (32, 50), (1, 200), (7.5, 12)]
)
@pytest.mark.parametrize("confidence", [0.95, 0.9, 0.99])
def test_wilson_matches_statsmodels(k: float, n: int, confidence: float) -> None:
    got = wilson(k, n, confidence)
    lo, hi = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
    assert got == pytest.approx((lo, hi), abs=1e-12)


def test_wilson_edges() -> None:
    assert wilson(0, 0) is None
    assert wilson(0, 7)[0] == 0.0 and wilson(7, 7)[1] == 1.0  # type: ignore[index]
    with pytest.raises(ValueError):
        wilson(8, 7)


# (both, a_only, b_only, neither) tables
TABLES = [(10, 0, 0, 5), (3, 5, 1, 2), (20, 15, 3, 1), (0, 0, 9, 0), (40, 12, 11, 7),
          (5, 1, 0, 5), (100, 30, 50, 20)]  # fmt: skip


@pytest.mark.parametrize(("both", "b", "c", "neither"), TABLES)
def test_mcnemar_exact_matches_statsmodels(both: int, b: int, c: int, neither: int) -> None:
    expected = mcnemar([[both, b], [c, neither]], exact=True).pvalue
    assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-12, abs=1e-15)
    if b + c:
        assert mcnemar_exact(b, c) == pytest.approx(binomtest(b, b + c, 0.5).pvalue)


def test_mcnemar_known_value() -> None:
    # b=15, c=3: 2 * P(X <= 3 | n=18, 1/2) = 2 * 988 / 2**18
    assert mcnemar_exact(15, 3) == pytest.approx(2 * 988 / 2**18)
    assert mcnemar_exact(0, 0) == 1.0


def test_cohens_g() -> None:
    assert cohens_g(15, 3) == pytest.approx(15 / 18 - 0.5)
    assert cohens_g(3, 15) == cohens_g(15, 3)
    assert cohens_g(4, 4) == 0.0
    assert cohens_g(0, 0) is None


@pytest.mark.parametrize(("b", "c"), [(15, 3), (4, 4), (1, 9), (12, 11)])
def test_odds_ratio_interval_is_exact_clopper_pearson(b: int, c: int) -> None:
    ratio, ci = discordant_odds_ratio(b, c)
    pl, pu = proportion_confint(b, b + c, method="beta")  # Clopper-Pearson
    assert ratio == pytest.approx(b / c)
    assert ci is not None and ci[0] == pytest.approx(pl / (1 - pl))
    assert ci[1] == pytest.approx(pu / (1 - pu))
    assert ci[0] < ratio < ci[1]  # type: ignore[operator]


def test_odds_ratio_interval_agrees_with_the_exact_test() -> None:
    for n in range(1, 26):
        for b in range(n + 1):
            _, ci = discordant_odds_ratio(b, n - b)
            assert ci is not None
            excludes_one = ci[0] > 1 or (ci[1] is not None and ci[1] < 1)
            assert excludes_one == (mcnemar_exact(b, n - b) < 0.05), (b, n - b)


def test_odds_ratio_edges() -> None:
    assert discordant_odds_ratio(0, 0) == (None, None)
    ratio, ci = discordant_odds_ratio(5, 0)  # 5 of 5: p = 0.0625, the interval includes 1
    assert ratio is None and ci is not None and ci[0] < 1 and ci[1] is None
    ratio, ci = discordant_odds_ratio(6, 0)  # 6 of 6: p = 0.031, the interval excludes 1
    assert ratio is None and ci is not None and ci[0] > 1 and ci[1] is None
    ratio, ci = discordant_odds_ratio(0, 5)
    assert ratio == 0.0 and ci is not None and ci[0] == 0.0 and ci[1] is not None


def test_holm_matches_statsmodels() -> None:
    ps = [0.01, 0.04, 0.03, 0.2, 0.0001]
    assert holm(ps) == pytest.approx(list(multipletests(ps, method="holm")[1]))
    # by hand: sorted 0.0001*5, 0.01*4, 0.03*3, 0.04*2, 0.2*1, made monotone
    assert holm(ps) == pytest.approx([0.04, 0.09, 0.09, 0.2, 0.0005])
    assert holm([0.3]) == [0.3] and holm([]) == []


def _constructed(n: int = 200) -> tuple[list[int], list[int]]:
    """A succeeds on 120 of 200, B on 80; the rate difference is exactly 0.2."""
    a = [1] * 120 + [0] * 80
    b = [1] * 70 + [0] * 50 + [1] * 10 + [0] * 70
    return a, b


def test_bootstrap_is_reproducible_with_its_seed() -> None:
    a, b = _constructed()
    first = paired_bootstrap_ci(a, b, resamples=2000, seed=7)
    assert first == paired_bootstrap_ci(a, b, resamples=2000, seed=7)
    assert first != paired_bootstrap_ci(a, b, resamples=2000, seed=8)


def test_bootstrap_covers_the_difference_of_a_constructed_example() -> None:
    a, b = _constructed()
    ci = paired_bootstrap_ci(a, b, seed=0)
    assert ci is not None
    lo, hi = ci
    assert lo < 0.2 < hi and lo > 0  # the difference, and clearly above zero
    # the normal approximation of the paired difference agrees to about a point
    d = np.array(a) - np.array(b)
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert lo == pytest.approx(0.2 - 1.96 * se, abs=0.015)
    assert hi == pytest.approx(0.2 + 1.96 * se, abs=0.015)


def test_bootstrap_coverage_over_simulated_studies() -> None:
    """Draw 100 paired studies from a population with a true difference of 0.15: ~95% cover it."""
    gen = np.random.default_rng(2024)
    covered = 0
    for i in range(100):
        u = gen.random(150)
        a = (u < 0.65).astype(int)  # P(A) = 0.65
        b = ((u < 0.45) | (u > 0.95)).astype(int)  # P(B) = 0.50, correlated with A
        ci = paired_bootstrap_ci(list(a), list(b), resamples=1000, seed=i)
        assert ci is not None
        covered += ci[0] <= 0.15 <= ci[1]
    assert covered >= 88


def test_bootstrap_edges() -> None:
    assert paired_bootstrap_ci([1], [0]) is None
    assert paired_bootstrap_ci([1, 0, 1], [1, 0, 1]) == (0.0, 0.0)
    with pytest.raises(ValueError):
        paired_bootstrap_ci([1, 0], [1])
