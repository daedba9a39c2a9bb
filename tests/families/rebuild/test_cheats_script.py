"""``scripts/rebuild_cheats.py``: the wrapper and the copy it writes for each task of a suite are
real cheats (the copy behaves as the gold) and the judge scores both zero."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rebuild_tasks import needs_rev, rev_task

from truepass.answers import Answer
from truepass.families.rebuild.family import RebuildFamily
from truepass.judged import JudgeConfig
from truepass.vocabulary import Verdict

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "rebuild_cheats.py"


def test_both_cheats_of_a_suite_score_zero(tmp_path: Path) -> None:
    needs_rev()
    sample = rev_task()
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "suite.jsonl").write_text(sample.model_dump_json() + "\n")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(suite), str(tmp_path / "cheats")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    family, config = RebuildFamily(), JudgeConfig()
    check = family.check(sample, config)
    judged = {}
    for name in ("wrap", "copy"):
        (line,) = (tmp_path / "cheats" / f"{name}.jsonl").read_text().splitlines()
        answer = json.loads(line)
        assert answer["sample_id"] == "rev"
        judged[name] = family.judge(sample, Answer(files=answer["files"]), check, config)
    assert "wraps-gold" in judged["wrap"].flags
    assert judged["wrap"].scores["pass_rate"] == 0.0
    assert judged["copy"].verdict is Verdict.CORRECT  # the gold's own bytes behave as the gold
    assert judged["copy"].flags == ["copies-gold"]
    assert judged["copy"].scores["pass_rate"] == 0.0
