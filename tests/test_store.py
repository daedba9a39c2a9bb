from __future__ import annotations

from pathlib import Path

from truepass.records import AttemptRecord
from truepass.store import Store


def _rec(sample: str, attempt: int = 0, verdict: str = "correct") -> AttemptRecord:
    return AttemptRecord(
        suite="s", sample_id=sample, defect_type="t", leakage="private",
        solver="oracle", attempt=attempt, verdict=verdict,
    )  # fmt: skip


def test_attempts_survive_reopen_and_infra_errors_are_redone(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.sqlite")
    store.put(_rec("a"))
    store.put(_rec("b", verdict="infra-error"))
    store.close()
    again = Store(tmp_path / "store.sqlite")
    assert again.done_keys() == {("oracle", "a", 0)}
    again.put(_rec("b", verdict="overfit"))  # the retried attempt replaces the infra error
    assert [(r.sample_id, r.verdict) for r in again.records()] == [
        ("a", "correct"),
        ("b", "overfit"),
    ]


def test_checks_and_meta(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.sqlite")
    assert store.get_check("h", "a") is None
    store.put_check("h", "a", {"valid": True})
    assert store.get_check("h", "a") == {"valid": True}
    assert store.get_check("other-hash", "a") is None
    store.set_meta("k", "v")
    assert store.get_meta("k") == "v"
