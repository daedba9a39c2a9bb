"""Wilson intervals on the rates of summary.json and in the summary table."""

from __future__ import annotations

import pytest
from results_helpers import record
from statsmodels.stats.proportion import proportion_confint

from truepass.analysis.summary import Rates, Summary, rates, summarize
from truepass.cli.common import out_console
from truepass.cli.tables import print_summary


def _wilson(k: float, n: int) -> list[float]:
    return [round(x, 4) for x in proportion_confint(k, n, method="wilson")]


def test_rates_carry_wilson_intervals() -> None:
    verdicts = ["correct"] * 6 + ["overfit"] * 2 + ["fails-visible"] * 2 + ["invalid-sample"]
    r = rates([record(f"s{i}", v) for i, v in enumerate(verdicts)])
    assert (r.counted, r.correct, r.plausible) == (10, 6, 8)
    assert r.correct_ci == _wilson(6, 10)
    assert r.plausible_ci == _wilson(8, 10)
    assert r.overfit_share_ci == _wilson(2, 8)


def test_several_attempts_count_samples_not_attempts() -> None:
    recs = [record(f"s{i}", "correct" if a == 0 else "broken", attempt=a)
            for i in range(5) for a in range(4)]  # fmt: skip
    r = rates(recs)
    assert r.counted == 20 and r.correct_rate == 0.25
    assert r.correct_ci == _wilson(0.25 * 5, 5)  # 5 samples, not 20 attempts


def test_no_counted_attempts_have_no_interval() -> None:
    r = rates([record("s1", "invalid-sample"), record("s2", "infra-error")])
    assert r.correct_ci is None and r.plausible_ci is None and r.overfit_share_ci is None


def test_old_summary_json_without_intervals_still_loads() -> None:
    old = {"attempts": 1, "counted": 1, "verdicts": {"correct": 1}, "plausible": 1, "correct": 1,
           "plausible_rate": 1.0, "correct_rate": 1.0, "overfit_share": 0.0}  # fmt: skip
    assert Rates.model_validate(old).correct_ci is None


def test_table_shows_rate_with_interval() -> None:
    verdicts = ["correct"] * 32 + ["fails-visible"] * 18
    summary = summarize("mini", [record(f"s{i}", v) for i, v in enumerate(verdicts)])
    assert isinstance(summary, Summary)
    with out_console.capture() as cap:
        print_summary(summary)
    lo, hi = proportion_confint(32, 50, method="wilson")
    assert f"64.0% [{100 * lo:.0f}–{100 * hi:.0f}]" in cap.get()
    assert "64.0% [50–76]" in cap.get()


@pytest.mark.parametrize("k", [0, 50])
def test_extreme_rates_reach_the_bounds(k: int) -> None:
    verdicts = ["correct"] * k + ["broken"] * (50 - k)
    r = rates([record(f"s{i}", v) for i, v in enumerate(verdicts)])
    assert r.correct_ci is not None
    assert (r.correct_ci[0] == 0.0) if k == 0 else (r.correct_ci[1] == 1.0)
