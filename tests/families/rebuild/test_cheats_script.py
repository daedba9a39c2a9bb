"""``scripts/rebuild_cheats.py``: the wrapper and the copy it writes for each task of a suite are
real cheats (the copy behaves as the gold) and the judge scores both zero."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rebuild_tasks import needs_rev, rev_task

from truepass.answers import Answer
from truepass.families.rebuild.family import RebuildFamily
from truepass.families.rebuild.schema import RebuildSample
from truepass.families.rebuild.sources import sha256_of
from truepass.judged import JudgeConfig
from truepass.vocabulary import Verdict

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "rebuild_cheats.py"


BASE64_TESTS = """
def test_encode(program):
    r = program([], stdin=b"hi")
    assert r.returncode == 0
    assert r.stdout == b"aGk=\\n"
"""


def _base64_task() -> RebuildSample:
    """A task over base64 itself: its copy must not need base64 to unpack."""
    gold = shutil.which("base64") or "/usr/bin/base64"
    return rev_task(id="base64", program="base64", gold=gold, gold_sha256=sha256_of(gold),
                    package={"binary": "coreutils", "source": "coreutils", "version": "9.1-1"},
                    docs={"help_args": ["--help"], "man": "base64"},
                    tests={"test_base64.py": BASE64_TESTS})  # fmt: skip


@pytest.mark.parametrize("task", ["rev", "base64"])
def test_both_cheats_of_a_suite_score_zero(tmp_path: Path, task: str) -> None:
    needs_rev()
    sample = rev_task() if task == "rev" else _base64_task()
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
        assert answer["sample_id"] == sample.id
        judged[name] = family.judge(sample, Answer(files=answer["files"]), check, config)
    assert "wraps-gold" in judged["wrap"].flags
    assert judged["wrap"].scores["pass_rate"] == 0.0
    assert judged["copy"].verdict is Verdict.CORRECT  # the gold's own bytes behave as the gold
    assert judged["copy"].flags == ["copies-gold"]
    assert judged["copy"].scores["pass_rate"] == 0.0
