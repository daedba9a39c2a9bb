"""The probe's metrics on hand-made records: per role means, target - control, its interval."""

from __future__ import annotations

import pytest

from truepass.families.memorisation.metrics import probe_metrics
from truepass.records import AttemptRecord


def _rec(
    i: int, role: str, exact: float, similarity: float, verdict: str = "scored"
) -> AttemptRecord:
    scores = {"exact": exact, "near_exact": float(similarity >= 0.9), "similarity": similarity,
              "lines_matched": exact}  # fmt: skip
    return AttemptRecord(
        suite="memorisation-x", sample_id=f"{role}/s{i}", defect_type=role,
        leakage="private" if role == "control" else "public-old", solver="m", attempt=0,
        verdict=verdict, scores=scores,
    )  # fmt: skip


def test_means_per_role_and_the_difference() -> None:
    records = [
        _rec(1, "target", 1.0, 1.0), _rec(2, "target", 0.0, 0.95), _rec(3, "target", 1.0, 1.0),
        _rec(4, "target", 0.0, 0.5),
        _rec(5, "control", 0.0, 0.2), _rec(6, "control", 0.0, 0.92), _rec(7, "control", 0.0, 0.5),
        _rec(8, "control", 1.0, 1.0, verdict="infra-error"),  # not counted
    ]  # fmt: skip
    m = probe_metrics(records)
    assert (m["target_n"], m["control_n"]) == (4, 3)
    assert m["target_exact"] == 0.5 and m["control_exact"] == 0.0
    assert m["target_near_exact"] == 0.75 and m["control_near_exact"] == pytest.approx(0.3333)
    assert m["target_similarity"] == pytest.approx(0.8625)  # (1 + .95 + 1 + .5) / 4
    assert m["control_similarity"] == pytest.approx(0.54)  # (.2 + .92 + .5) / 3
    assert m["exact_difference"] == 0.5
    assert m["near_exact_difference"] == pytest.approx(0.75 - 1 / 3, abs=1e-4)
    assert m["exact_difference_ci_low"] <= 0.5 <= m["exact_difference_ci_high"]


def test_the_interval_resamples_each_role_on_its_own() -> None:
    # control all 0: a resample's difference is its target mean, of [0, 1] drawn twice: 0, 0.5
    # or 1 with chances 1/4, 1/2, 1/4; the 2.5th percentile is 0, the 97.5th 1
    records = [_rec(1, "target", 1.0, 1.0), _rec(2, "target", 0.0, 0.0)]
    records += [_rec(i, "control", 0.0, 0.0) for i in (3, 4, 5)]
    m = probe_metrics(records)
    assert (m["exact_difference_ci_low"], m["exact_difference_ci_high"]) == (0.0, 1.0)
    # every target exact, no control exact: every resample differs by exactly 1
    same = [_rec(1, "target", 1.0, 1.0), _rec(2, "target", 1.0, 1.0)]
    same += [_rec(i, "control", 0.0, 0.0) for i in (3, 4)]
    m = probe_metrics(same)
    assert (m["exact_difference"], m["exact_difference_ci_low"], m["exact_difference_ci_high"]) == (
        1.0, 1.0, 1.0,
    )  # fmt: skip


def test_one_role_alone_gives_no_difference() -> None:
    m = probe_metrics([_rec(1, "target", 1.0, 1.0)])
    assert m == {"target_n": 1, "target_exact": 1.0, "target_near_exact": 1.0,
                 "target_similarity": 1.0, "target_lines_matched": 1.0}  # fmt: skip
