"""compare's tier contrast (public against private samples within one arm) and the unpaired
bootstrap interval it uses, on hand-written results."""

from __future__ import annotations

from pathlib import Path

import pytest
from results_helpers import record, write_run

from truepass.analysis.compare import compare_runs
from truepass.analysis.stats import unpaired_bootstrap_ci

# ids with a digit sum not divisible by 3 are public-old, multiples of 3 private
# (results_helpers.record)


def _one_arm(root: Path) -> Path:
    return write_run(root, "probe", [
        record("s01", "correct", scores={"exact": 1.0}),
        record("s01", "broken", attempt=1, scores={"exact": 0.0}),
        record("s02", "correct", scores={"exact": 1.0}),
        record("s04", "broken", scores={"exact": 0.0}),
        record("s03", "broken", scores={"exact": 0.0}),
        record("s06", "correct", scores={"exact": 1.0}),
        record("s09", "broken", scores={"exact": 0.0}),
        record("s12", "infra-error", scores={"exact": 1.0}),  # not valid: left out
    ])  # fmt: skip


def test_one_arm_with_public_and_private_samples_is_compared_with_itself(tmp_path: Path) -> None:
    c = compare_runs([_one_arm(tmp_path)], bootstrap=2000, seed=4)
    assert c.pairs == [] and c.leakage == []
    (t,) = c.tier_contrasts
    assert (t.arm, t.solver, t.public_tiers) == ("model-x", "model-x", ["public-old"])
    assert (t.n_public, t.n_private) == (3, 3)
    assert list(t.measures) == ["correct", "exact"]
    correct = t.measures["correct"]
    # public: s01 (1 of 2 attempts), s02, s04 -> (0.5 + 1 + 0) / 3; private: s03, s06, s09 -> 1/3
    assert correct.mean_public == pytest.approx(0.5)
    assert correct.mean_private == pytest.approx(1 / 3)
    assert correct.difference == pytest.approx(0.5 - 1 / 3)
    ci = unpaired_bootstrap_ci([0.5, 1.0, 0.0], [0.0, 1.0, 0.0], resamples=2000, seed=4)
    assert correct.difference_ci == pytest.approx(list(ci or ()))
    low, high = correct.difference_ci or (0, 0)
    assert -1 <= low < 0.5 - 1 / 3 < high <= 1
    assert t.measures["exact"].mean_public == pytest.approx(0.5)


def test_metric_only_arms_leave_the_correct_rate_out(tmp_path: Path) -> None:
    run = write_run(tmp_path, "scored", [
        record("s01", "scored", scores={"exact": 1.0}),
        record("s02", "no-patch", scores={"exact": 0.0}),
        record("s03", "scored", scores={"exact": 0.0}),
        record("s06", "scored", scores={"exact": 0.0}),
    ])  # fmt: skip
    (t,) = compare_runs([run], bootstrap=200).tier_contrasts
    assert list(t.measures) == ["exact"]
    assert t.measures["exact"].difference == 0.5
    assert t.measures["exact"].difference_ci == [0.0, 1.0]  # see the next test


def test_unpaired_interval_by_hand() -> None:
    # b constant 0: each resample's difference is the mean of two draws of [0, 1]: 0, 0.5 or 1
    # with chances 1/4, 1/2, 1/4, so the 2.5th and 97.5th percentiles are 0 and 1
    assert unpaired_bootstrap_ci([0.0, 1.0], [0.0, 0.0], resamples=2000) == (0.0, 1.0)
    assert unpaired_bootstrap_ci([1.0, 1.0], [0.0, 0.0, 0.0]) == (1.0, 1.0)
    assert unpaired_bootstrap_ci([1.0], [0.0, 1.0]) is None
    first = unpaired_bootstrap_ci([0.2, 0.9, 0.4], [0.1, 0.3], resamples=500, seed=1)
    assert first == unpaired_bootstrap_ci([0.2, 0.9, 0.4], [0.1, 0.3], resamples=500, seed=1)


def test_arms_sharing_no_sample_are_not_paired(tmp_path: Path) -> None:
    probe = _one_arm(tmp_path)
    other = write_run(tmp_path, "other", [record("t01", "correct", solver="model-y"),
                                          record("t02", "broken", solver="model-y")])  # fmt: skip
    c = compare_runs([probe, other], bootstrap=200)
    assert c.pairs == [] and len(c.tier_contrasts) == 1
    assert "model-x and model-y share no sample: not paired" in c.notes
