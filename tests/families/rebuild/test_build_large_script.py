"""``scripts/build_rebuild_large.py --summary``: the table of every task a suite holds, with
the difficulty bucket, the medians and the tasks still missing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rebuild_tasks import rev_task

from truepass.families.rebuild.generate import write_suite
from truepass.families.rebuild.schema import Generation

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "build_rebuild_large.py"


def test_summary_lists_every_task_with_its_bucket_and_the_medians(tmp_path: Path) -> None:
    made = Generation(kept=320, candidates=900, coverage=0.8, coverage_tool="gcov",
                      dummy_pass_before=0.05, dummy_pass_after=0.0, seconds=12.0)  # fmt: skip
    write_suite(tmp_path, rev_task(generation=made))
    big = made.model_copy(update={"kept": 500, "coverage": 0.9})
    write_suite(tmp_path, rev_task(id="colrm", program="colrm", generation=big, loc=200000,
                                   dependencies=60))  # fmt: skip
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), "--summary"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("task\tlanguage\tkept\tcoverage")
    rows = {line.split("\t")[0]: line.split("\t") for line in lines[1:3]}
    assert [rows["rev"][2], rows["rev"][3], rows["rev"][9]] == ["320", "80.0%", "easy"]
    assert [rows["colrm"][2], rows["colrm"][9]] == ["500", "hard"]  # log10(2e5 * 61) - 2 > 4
    assert "2 tasks" in lines[3] and "median kept 410.0" in lines[3]
    assert "median coverage 85.0%" in lines[3] and "missing: gron," in lines[3]
    # nothing made: no progress line written
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".jsonl") == ["suite.jsonl"]
