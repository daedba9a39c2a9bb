from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

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


def test_put_many_writes_all_or_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.sqlite")
    store.put_many([_rec("a"), _rec("a", attempt=1), _rec("b")])
    store.put_many([])
    assert len(store.done_keys()) == 3

    class Broken(AttemptRecord):
        def model_dump_json(self, **kw: object) -> str:  # type: ignore[override]
            return None  # type: ignore[return-value]  # NOT NULL: sqlite refuses the row

    bad = Broken(**_rec("d").model_dump())
    with pytest.raises(sqlite3.IntegrityError, match="NOT NULL"):
        store.put_many([_rec("c"), bad])
    assert ("oracle", "c", 0) not in store.done_keys()  # the whole batch was rolled back
    store.put(_rec("c"))
    assert ("oracle", "c", 0) in store.done_keys()
