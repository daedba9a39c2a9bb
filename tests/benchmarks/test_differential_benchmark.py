"""benchmarks/differential.py, the differential check's recall, false alarms and cost, must
really check: one labelled sample end to end (its overfit patch flagged, its genuine rewrites
not), with the cost ratio printed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "differential.py"


def test_one_labelled_sample_is_measured(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--split", "all", "--sample", "mini-018-range-filter",
         "--jobs", "1", "--out", str(out)],
        capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    rows = json.loads(out.read_text())
    overfit = [r for r in rows if r["label"] == "overfit"]
    genuine = [r for r in rows if r["label"] == "genuine"]
    assert overfit and all(r["flagged"] for r in overfit)
    assert genuine and not any(r.get("flagged") for r in genuine)
    assert "ratio, the check over its peer" in done.stdout
