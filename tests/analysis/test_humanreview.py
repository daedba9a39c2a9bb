"""The review sheet's stratified sample and the labels' import (issue 28, item 5)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from report.report_runs import record, write_run

from truepass.analysis.humanreview import (
    allocate,
    attempt_key,
    import_labels,
    plan_sheet,
    run_agreement,
    save_plan,
)
from truepass.errors import InputError
from truepass.records import AttemptRecord, read_results


@pytest.mark.parametrize(
    ("sizes", "n", "expected"),
    [
        ([6, 3, 1], 5, [3, 1, 1]),  # quotas 3, 1.5, 0.5: floors 3, 1, and 1 at least
        ([7, 2, 1], 6, [4, 1, 1]),  # quotas 4.2, 1.2, 0.6
        ([5, 5], 3, [2, 1]),  # quotas 1.5, 1.5: the draw left goes to the earlier stratum
        ([10, 10, 10, 1], 3, [1, 1, 1, 1]),  # more strata than draws: one each
        ([2, 1], 10, [2, 1]),  # fewer attempts than draws: all
        ([8, 0, 2], 5, [4, 0, 1]),  # an empty stratum gets none
    ],
)
def test_allocation(sizes: list[int], n: int, expected: list[int]) -> None:
    assert allocate(sizes, n) == expected


def _records() -> list[AttemptRecord]:
    lines = []
    for i in range(12):
        lines.append(record(f"s{i:02}", "oracle", "correct"))
        lines.append(record(f"s{i:02}", "noop", "fails-visible" if i < 9 else "no-patch"))
    for i in range(4):
        lines.append(record(f"s{i:02}", "tmpl", "overfit"))
        lines.append(record(f"s{i + 4:02}", "tmpl", "correct", flags=["special-cases-input"]))
    lines.append(record("bad", "tmpl", "invalid-sample"))
    return [AttemptRecord.model_validate(x) for x in lines]


def test_the_sheet_is_a_stratified_sample() -> None:
    records = _records()
    plan = plan_sheet(records, run="r", size=10, seed=3)
    strata = {(s.verdict, s.flagged, s.solver): (s.size, s.drawn) for s in plan.strata}
    # 32 counted attempts (the invalid sample left out) in 5 strata; 10 drawn:
    # quotas 12*10/32 = 3.75 (oracle correct), 9*10/32 = 2.8 (noop fails-visible),
    # 3*10/32 = 0.94 (noop no-patch), 4*10/32 = 1.25 (tmpl overfit, tmpl flagged correct);
    # floors 3, 2, 1, 1, 1 = 8, then the two largest remainders: oracle (.75) and noop (.8)
    assert plan.population == 32
    assert strata == {
        ("correct", False, "oracle"): (12, 4),
        ("fails-visible", False, "noop"): (9, 3),
        ("no-patch", False, "noop"): (3, 1),
        ("overfit", False, "tmpl"): (4, 1),
        ("correct", True, "tmpl"): (4, 1),
    }
    by_key = {attempt_key(r): r for r in records}
    drawn = Counter((str(by_key[k].verdict), by_key[k].solver) for k in plan.entries)
    assert drawn[("correct", "oracle")] == 4 and drawn[("correct", "tmpl")] == 1
    assert len(set(plan.entries)) == 10
    assert "tmpl/bad/0" not in plan.entries
    # deterministic by seed, and another seed draws other attempts
    assert plan_sheet(records, run="r", size=10, seed=3).entries == plan.entries
    assert plan_sheet(records, run="r", size=10, seed=4).entries != plan.entries
    share = plan_sheet(records, run="r", share=0.25)
    assert share.requested == 8 and len(share.entries) == 8


def test_size_and_share_together_are_refused() -> None:
    with pytest.raises(InputError, match="--size or --share"):
        plan_sheet(_records(), run="r", size=3, share=0.5)


def _labels(path: Path, plan_id: str, run_hash: str, labels: list[dict[str, str]]) -> Path:
    path.write_text(json.dumps({"format": "truepass-review-labels/1", "sheet_id": plan_id,
                                "run_hash": run_hash, "labels": labels}))  # fmt: skip
    return path


def test_import_checks_the_run_and_the_sheet(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", [r.model_dump(mode="json") for r in _records()])
    records = read_results(run)
    plan = plan_sheet(records, run="run", suite_hash="h", size=6, seed=1)
    save_plan(run, plan)
    first, second = plan.entries[:2]
    given = [{"key": first, "label": "correct"}, {"key": second, "label": "unsure"}]
    good = _labels(tmp_path / "l.json", plan.sheet_id, plan.run_hash, given)
    stored = import_labels(run, good, records, "h")
    assert stored == run / "review" / "labels" / f"{plan.sheet_id}.json"
    found = run_agreement(run, records)
    assert found is not None and (found.labelled, found.unsure) == (2, 1)

    # another run's labels (its hash differs), a sheet never exported, a key not on the sheet,
    # a label that is not a class: each an input error naming the file and the field
    with pytest.raises(InputError, match=r"run_hash.*another run"):
        import_labels(run, good, records, "other suite")
    bad = _labels(tmp_path / "b1.json", "nosuchsheet", plan.run_hash, [])
    with pytest.raises(InputError, match=r"sheet_id.*not exported"):
        import_labels(run, bad, records, "h")
    off = next(attempt_key(r) for r in records if attempt_key(r) not in plan.entries)
    bad = _labels(tmp_path / "b2.json", plan.sheet_id, plan.run_hash,
                  [{"key": off, "label": "correct"}])  # fmt: skip
    with pytest.raises(InputError, match=r"b2\.json: field 'labels\.0\.key'"):
        import_labels(run, bad, records, "h")
    bad = _labels(tmp_path / "b3.json", plan.sheet_id, plan.run_hash,
                  [{"key": first, "label": "good"}])  # fmt: skip
    with pytest.raises(InputError, match=r"b3\.json: field 'labels\.0\.label'"):
        import_labels(run, bad, records, "h")
    (tmp_path / "b4.json").write_text("{not json")
    with pytest.raises(InputError, match=r"b4\.json: not JSON"):
        import_labels(run, tmp_path / "b4.json", records, "h")
