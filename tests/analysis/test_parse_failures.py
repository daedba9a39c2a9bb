"""Parse failures apart (issue 28, item 3): rates over parsed answers beside today's rates."""

from __future__ import annotations

from results_helpers import record
from statsmodels.stats.proportion import proportion_confint

from truepass.analysis.summary import Rates, rates, summarize
from truepass.cli.common import out_console
from truepass.cli.tables import print_summary


def _wilson(k: float, n: int) -> list[float]:
    return [round(x, 4) for x in proportion_confint(k, n, method="wilson")]


VERDICTS = (
    ["correct"] * 3 + ["overfit"] + ["fails-visible"] * 2 + ["no-patch"] * 4 + ["infra-error"]
)


def test_rates_over_parsed_answers_leave_no_patch_out() -> None:
    r = rates([record(f"s{i}", v) for i, v in enumerate(VERDICTS)])
    # by hand: 10 counted (the infra error is not), 4 of them no-patch, 6 parsed
    assert (r.counted, r.unparsed, r.parsed) == (10, 4, 6)
    assert r.correct_rate == 0.3  # 3 / 10, as before
    assert r.correct_rate_parsed == 0.5  # 3 / 6
    assert r.plausible_rate_parsed == round(4 / 6, 4)
    assert r.unparsed_rate == 0.4
    assert r.correct_parsed_ci == _wilson(3, 6)
    assert r.plausible_parsed_ci == _wilson(4, 6)
    assert r.unparsed_ci == _wilson(4, 10)


def test_nothing_parsed_has_no_parsed_rate() -> None:
    r = rates([record("s1", "no-patch"), record("s2", "no-patch")])
    assert (r.parsed, r.unparsed_rate) == (0, 1.0)
    assert r.correct_rate_parsed is None and r.correct_parsed_ci is None


def test_without_parse_failures_the_rates_agree() -> None:
    r = rates([record("s1", "correct"), record("s2", "broken")])
    assert r.unparsed == 0 and r.unparsed_rate == 0.0
    assert r.correct_rate_parsed == r.correct_rate == 0.5


def test_old_summary_json_reads_without_the_new_fields() -> None:
    old = {"attempts": 1, "counted": 1, "verdicts": {"correct": 1}, "plausible": 1, "correct": 1,
           "plausible_rate": 1.0, "correct_rate": 1.0, "overfit_share": 0.0}  # fmt: skip
    r = Rates.model_validate(old)
    assert r.unparsed == 0 and r.correct_rate_parsed is None


def test_table_shows_both_rates() -> None:
    summary = summarize("mini", [record(f"s{i}", v) for i, v in enumerate(VERDICTS)])
    with out_console.capture() as cap:
        print_summary(summary)
    text = cap.get()
    assert "unparsed%" in text and "40.0%" in text
    lo, hi = proportion_confint(3, 6, method="wilson")
    assert f"50.0% [{100 * lo:.0f}–{100 * hi:.0f}]" in text
