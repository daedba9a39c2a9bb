"""``reverify`` and ``scripts/rebuild_reverify.py``: more runs of a made task's tests on its
gold drop the tests the gold does not pass every time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rebuild_tasks import needs_rev, rev_task

from truepass.families.rebuild.generate import Settings, reverify
from truepass.families.rebuild.schema import Generation, RebuildSample

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "rebuild_reverify.py"

TESTS = """\
import os


def test_steady(program):
    r = program([], stdin=b"abc\\n")
    assert r.stdout == b"cba\\n"


def test_coin(program):
    # passes about half of the runs: what a map's order does to a gold's output
    assert os.urandom(1)[0] % 2 == 0


def test_wrong(program):
    r = program([], stdin=b"abc\\n")
    assert r.stdout == b"abc\\n"


def test_ignored_before(program):
    assert False
"""


def _task() -> RebuildSample:
    return rev_task(
        tests={"test_rev.py": TESTS},
        ignore={"test_rev.py::test_ignored_before": "lint:no-assert"},
        generation=Generation(kept=3, coverage=0.5),
    )


def test_more_runs_drop_what_the_gold_does_not_always_pass() -> None:
    needs_rev()
    updated, dropped = reverify(_task(), runs=12, settings=Settings(jobs=2))
    # test_coin fails a run with probability 1 - 2**-12
    assert dropped == {"test_rev.py::test_coin": "gold-flaky", "test_rev.py::test_wrong":
                       "gold-fail"}  # fmt: skip
    assert updated.ignore["test_rev.py::test_ignored_before"] == "lint:no-assert"
    assert updated.generation.kept == 1 and updated.generation.coverage == 0.5


def test_the_script_rewrites_the_task_in_place(tmp_path: Path) -> None:
    needs_rev()
    other = rev_task(id="other")
    (tmp_path / "suite.jsonl").write_text(_task().model_dump_json() + "\n"
                                          + other.model_dump_json() + "\n")  # fmt: skip
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), "rev", "--runs", "12"],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("rev: 2 dropped in 12 runs: test_coin (gold-flaky), "
                                  "test_wrong (gold-fail); kept 1")  # fmt: skip
    lines = [RebuildSample.model_validate_json(x)
             for x in (tmp_path / "suite.jsonl").read_text().splitlines()]  # fmt: skip
    assert [s.id for s in lines] == ["rev", "other"] and lines[1] == other
    assert lines[0].ignore["test_rev.py::test_coin"] == "gold-flaky"
    missing = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), "nope"],
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert missing.returncode == 2 and "no such task" in missing.stderr
