"""Hand-written results for the analysis tests (AttemptRecord lines of results.jsonl)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from truepass.records import AttemptRecord


def record(sample_id: str, verdict: str, **kw: Any) -> AttemptRecord:
    """One attempt; defect type and leakage tier follow the digits of the sample id."""
    n = int("".join(ch for ch in sample_id if ch.isdigit()) or 0)
    base: dict[str, Any] = {
        "suite": "mini",
        "sample_id": sample_id,
        "defect_type": "off-by-one" if n % 2 else "wrong-op",
        "leakage": "public-old" if n % 3 else "private",
        "solver": "model-x",
        "attempt": 0,
        "verdict": verdict,
    }
    base.update(kw)
    return AttemptRecord(**base)


def write_run(root: Path, name: str, records: list[AttemptRecord]) -> Path:
    """Write ``root/name/results.jsonl`` and return the run directory."""
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    text = "".join(r.model_dump_json() + "\n" for r in records)
    (d / "results.jsonl").write_text(text, encoding="utf-8")
    return d


# The fixed pair of runs used by test_compare.py and test_compare_cli.py.
# s01-s09 are paired; s10 is invalid in both, s11 only in A, s12 an infra error in A, s13 only
# in B.  correct: both s01 s05; A only s02 s03 s04 s08; B only s06 s09; neither s07.
# plausible (passes visible): A only s02 s04; B only s09; both s01 s03 s05 s06 s08; neither s07.
VERDICTS_A = {
    "s01": "correct", "s02": "correct", "s03": "correct", "s04": "correct", "s05": "correct",
    "s06": "overfit", "s07": "fails-visible", "s08": "correct", "s09": "broken",
    "s10": "invalid-sample", "s11": "correct", "s12": "infra-error",
}  # fmt: skip
VERDICTS_B = {
    "s01": "correct", "s02": "fails-visible", "s03": "overfit", "s04": "broken",
    "s05": "correct", "s06": "correct", "s07": "fails-visible", "s08": "plausible",
    "s09": "correct", "s10": "invalid-sample", "s12": "correct", "s13": "correct",
}  # fmt: skip


def write_pair(root: Path) -> tuple[Path, Path]:
    """Two runs, solver model-x in run-a and model-y in run-b."""
    a = write_run(root, "run-a", [record(s, v) for s, v in VERDICTS_A.items()])
    b = write_run(root, "run-b", [record(s, v, solver="model-y") for s, v in VERDICTS_B.items()])
    return a, b
