"""``scripts/rebuild_coverage_gaps.py``: task by task, why coverage stays below the goal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rebuild_tasks import needs_rev, rev_task

from truepass.families.rebuild.schema import CoverageGaps, FunctionGap, Generation

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "rebuild_coverage_gaps.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=60)  # fmt: skip


def test_tasks_below_the_goal_say_why(tmp_path: Path) -> None:
    needs_rev()
    gaps = CoverageGaps(
        missed=30, unrun_functions=10, error_handling=15, other=5,
        functions=[FunctionGap(file="text-utils/rev.c", function="main", line=120, missed=20,
                               ran=True, error_handling=15, first_missed="err(EXIT_FAILURE")],
    )  # fmt: skip
    tasks = [
        rev_task(id="high", generation=Generation(coverage=0.9, coverage_tool="gcov")),
        rev_task(id="low", generation=Generation(coverage=0.7, coverage_gaps=gaps)),
        rev_task(id="go", language="go", generation=Generation(coverage_note="Go 1.19: none")),
        rev_task(id="old", generation=Generation(coverage=0.5)),
    ]
    (tmp_path / "suite.jsonl").write_text("".join(t.model_dump_json() + "\n" for t in tasks))
    done = _run(str(tmp_path))
    assert done.returncode == 0, done.stderr
    rows = {line.split("\t")[0]: line for line in done.stdout.splitlines()[1:-2]}
    assert set(rows) == {"low", "go", "old"}  # 90% is above the goal: not listed
    assert "30 lines missed: 0 run only by dropped tests, 10 in functions no test runs, 15 " \
           "handling errors, 5 other" in rows["low"]  # fmt: skip
    assert "text-utils/rev.c:120 main: 20 (15 error handling)" in rows["low"]
    assert rows["go"].endswith("\t-\tGo 1.19: none")
    assert "gaps not recorded" in rows["old"]
    assert done.stdout.splitlines()[-2:] == [
        "3 task(s) below 86% or without coverage",
        "their missed lines: 30: 0 run only by dropped tests, 10 in functions no test runs, 15 "
        "handling errors, 5 other",
    ]
    assert "high" in _run(str(tmp_path), "--below", "0.95").stdout


def test_bad_input_says_where(tmp_path: Path) -> None:
    missing = _run(str(tmp_path))
    assert missing.returncode == 2 and "suite.jsonl" in missing.stderr
    (tmp_path / "suite.jsonl").write_text('{"family": "rebuild"}\n')
    bad = _run(str(tmp_path))
    assert bad.returncode == 2 and f"{tmp_path / 'suite.jsonl'}:1: not a rebuild task" in bad.stderr
