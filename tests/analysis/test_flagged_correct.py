from __future__ import annotations

from truepass.analysis.summary import summarize
from truepass.records import AttemptRecord, is_correct


def _rec(sample: str, verdict: str, flags: list[str]) -> AttemptRecord:
    return AttemptRecord(suite="s", sample_id=sample, defect_type="t", leakage="private",
                         solver="x", attempt=0, verdict=verdict, flags=flags)  # fmt: skip


def test_a_flagged_correct_patch_is_not_counted_as_correct() -> None:
    recs = [
        _rec("a", "correct", []),
        _rec("b", "correct", ["flaky"]),  # flakiness already downgrades; not a fake-fix flag
        _rec("c", "correct", ["hardcodes-expected"]),
        _rec("d", "overfit", ["swallows-exception"]),
    ]
    assert [is_correct(r) for r in recs] == [True, True, False, False]
    rates = summarize("s", recs).solvers[0].overall
    assert (rates.correct, rates.flagged_correct, rates.plausible) == (2, 1, 4)
    assert rates.correct_rate == 0.5
    assert summarize("s", recs).solvers[0].pass_at_k == {"pass@1": 0.5}


def test_the_summary_counts_patches_the_differential_check_demoted() -> None:
    recs = [
        _rec("a", "correct", ["differs-from-reference"]),
        _rec("b", "plausible", ["differs-from-reference"]),
        _rec("c", "correct", ["hardcodes-expected"]),
        _rec("d", "correct", []),
    ]
    solver = summarize("s", recs).solvers[0]
    assert solver.demoted_by_differential == 2
    assert (solver.overall.correct, solver.overall.flagged_correct) == (1, 2)
    assert summarize("s", recs[2:]).solvers[0].demoted_by_differential == 0
