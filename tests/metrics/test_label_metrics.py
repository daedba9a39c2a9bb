"""Label metrics and the bootstrap interval, against values computed by hand. docs/metrics.md."""

from __future__ import annotations

import numpy as np
import pytest

from truepass.metrics.bootstrap import bootstrap_ci
from truepass.metrics.labels import INTERVAL_METRICS, label_intervals, label_metrics

# ---------------------------------------------------------------- label_metrics


def test_label_metrics_by_hand_with_unparsed_and_unknown_answers():
    gold = ["accept", "accept", "reject", "reject", "reject", "accept"]
    pred = ["accept", None, "reject", "accept", "reject", "maybe"]
    # right: yes, no (unparsed), yes, no, yes, no (a label outside the classes) -> 3 of 6
    # positive "reject": TP = 2 (items 3, 5), answered "reject" 2 times -> precision 2/2 = 1;
    # gold "reject" 3 times -> recall 2/3; F1 = 2 * 1 * 2/3 / (1 + 2/3) = 0.8
    # recall[accept] = 1/3 (only item 1); recall[reject] = 2/3; balanced = (1/3 + 2/3) / 2
    # unparsed 1 of 6; majority: 3 of 6 either way; random over 2 classes: 1/2
    assert label_metrics(gold, pred, "reject") == pytest.approx(
        {
            "accuracy": 0.5,
            "precision": 1.0,
            "recall": 2 / 3,
            "f1": 0.8,
            "recall[accept]": 1 / 3,
            "recall[reject]": 2 / 3,
            "balanced_accuracy": 0.5,
            "unparsed_rate": 1 / 6,
            "majority_baseline": 0.5,
            "random_baseline": 0.5,
        }
    )


def test_unparsed_answers_are_counted_wrong_never_dropped():
    gold = ["correct", "overfitting", "overfitting", "overfitting"]
    pred = ["correct", "overfitting", None, None]
    m = label_metrics(gold, pred, "overfitting")
    # 2 of 4 right (dropping the unparsed would say 2 of 2); the two None are misses of
    # "overfitting": recall 1/3, precision 1/1, F1 = 2 * 1 * 1/3 / (4/3) = 0.5
    assert m["accuracy"] == 0.5
    assert m["unparsed_rate"] == 0.5
    assert m["recall"] == pytest.approx(1 / 3)
    assert m["precision"] == 1.0
    assert m["f1"] == pytest.approx(0.5)
    assert m["recall[correct]"] == 1.0
    assert m["majority_baseline"] == 0.75  # always "overfitting": 3 of 4


def test_three_classes_and_baselines():
    gold = ["a", "a", "a", "b", "c", "c"]
    pred = ["a", "b", "a", "b", "a", "c"]
    m = label_metrics(gold, pred, "a")
    # right: a, -, a, b, -, c -> 4/6; "a" answered 3 times (items 1, 3, 5), right twice ->
    # P = 2/3; gold "a" 3 times, 2 answered "a" -> R = 2/3; F1 = 2 * (2/3)(2/3) / (4/3) = 2/3
    assert m["accuracy"] == pytest.approx(4 / 6)
    assert m["precision"] == pytest.approx(2 / 3)
    assert m["recall"] == pytest.approx(2 / 3)
    assert m["f1"] == pytest.approx(2 / 3)
    assert (m["recall[a]"], m["recall[b]"], m["recall[c]"]) == pytest.approx((2 / 3, 1, 1 / 2))
    assert m["majority_baseline"] == 0.5
    assert m["random_baseline"] == pytest.approx(1 / 3)


def test_zero_division_gives_zero():
    # nobody answered "reject" and "reject" never occurs: precision, recall, F1 are 0
    m = label_metrics(["accept", "accept"], ["accept", None], "reject")
    assert (m["precision"], m["recall"], m["f1"]) == (0.0, 0.0, 0.0)
    assert "recall[reject]" not in m  # only classes seen in gold get a recall
    assert m["accuracy"] == 0.5


def test_label_metrics_edge_cases():
    assert label_metrics([], [], "x") == {}
    with pytest.raises(ValueError, match="one answer per gold label"):
        label_metrics(["a"], [], "a")


# ---------------------------------------------------------------- bootstrap_ci


def test_bootstrap_constant_values_collapse():
    assert bootstrap_ci([0.7] * 25) == pytest.approx((0.7, 0.7))
    assert bootstrap_ci([42.0]) == (42.0, 42.0)
    assert bootstrap_ci([]) is None


def test_bootstrap_is_deterministic_with_its_seed():
    values = [float(v) for v in np.random.default_rng(3).random(50)]
    assert bootstrap_ci(values) == bootstrap_ci(values)
    assert bootstrap_ci(values, seed=1) == bootstrap_ci(values, seed=1)
    assert bootstrap_ci(values, seed=1) != bootstrap_ci(values, seed=2)
    # resamples are drawn in batches of 1,000: more resamples extend the same stream
    low, high = bootstrap_ci(values, resamples=2500)
    assert low < sum(values) / len(values) < high


def test_bootstrap_two_points():
    # resampling [0, 1] twice: means 0, 1/2, 1 with probability 1/4, 1/2, 1/4, so the 2.5th
    # percentile is 0 and the 97.5th is 1 (each extreme is ~250 of 1,000 resamples)
    assert bootstrap_ci([0.0, 1.0]) == (0.0, 1.0)


def test_bootstrap_matches_the_normal_interval_on_a_large_sample():
    # 200 ones and 200 zeros: mean 0.5, standard error sqrt(0.25 / 400) = 0.025, so the 95%
    # interval is about 0.5 +- 1.96 * 0.025 = (0.451, 0.549); 90%: +- 1.645 * 0.025
    values = [1.0] * 200 + [0.0] * 200
    low, high = bootstrap_ci(values, resamples=4000)
    assert low == pytest.approx(0.451, abs=0.006)
    assert high == pytest.approx(0.549, abs=0.006)
    low, high = bootstrap_ci(values, resamples=4000, confidence=0.9)
    assert (low, high) == pytest.approx((0.5 - 0.0411, 0.5 + 0.0411), abs=0.006)


def test_bootstrap_agrees_with_scipy_percentile_bootstrap():
    from scipy.stats import bootstrap

    values = np.random.default_rng(11).exponential(2.0, size=120)
    theirs = bootstrap(
        (values,), np.mean, n_resamples=20000, method="percentile", rng=np.random.default_rng(0)
    ).confidence_interval
    low, high = bootstrap_ci(list(values), resamples=20000)
    assert low == pytest.approx(theirs.low, rel=0.02)
    assert high == pytest.approx(theirs.high, rel=0.02)


def test_bootstrap_rejects_bad_settings():
    with pytest.raises(ValueError, match="confidence"):
        bootstrap_ci([1.0], confidence=1.0)
    with pytest.raises(ValueError, match="resamples"):
        bootstrap_ci([1.0], resamples=0)


def test_label_intervals_match_label_metrics_recomputed_on_the_same_resamples() -> None:
    """Each interval is the 2.5/97.5 percentile of label_metrics over the bootstrap resamples
    (the same draws as bootstrap_ci), recomputed here one resample at a time in plain Python."""
    gold = ["accept", "reject", "reject", "accept", "reject", "accept", "reject", "reject"]
    said: list[str | None] = [
        "accept",
        "reject",
        None,
        "reject",
        "reject",
        "accept",
        "accept",
        "reject",
    ]
    got = label_intervals(gold, said, "reject")
    rng = np.random.default_rng(0)
    rows = rng.integers(0, len(gold), size=(1000, len(gold)))
    for name in INTERVAL_METRICS:
        values = [
            label_metrics([gold[i] for i in row], [said[i] for i in row], "reject")[name]
            for row in rows
        ]
        low, high = np.percentile(values, [2.5, 97.5])
        assert got[f"{name}_ci_low"] == pytest.approx(round(low, 4), abs=1e-4), name
        assert got[f"{name}_ci_high"] == pytest.approx(round(high, 4), abs=1e-4), name
    right = [float(g == p) for g, p in zip(gold, said, strict=True)]
    mean_ci = bootstrap_ci(right)
    assert mean_ci is not None
    assert got["accuracy_ci_low"] == round(mean_ci[0], 4)
    assert got["accuracy_ci_high"] == round(mean_ci[1], 4)
    assert got["f1_ci_low"] < got["f1_ci_high"]
    assert label_intervals([], [], "reject") == {}
