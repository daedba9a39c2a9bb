"""The bundled `mini` suite is sound (slow: every sample runs several times in the sandbox)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from truepass.checking import check_suite
from truepass.judged import JudgeConfig
from truepass.runner import run
from truepass.sandbox import Limits
from truepass.solvers import make_solver
from truepass.suites.loader import load_suite

ROOT = Path(__file__).resolve().parents[2]


def test_bundle_is_built_from_its_source_tree() -> None:
    got = subprocess.run(
        [sys.executable, "scripts/build_suite.py", "suites/mini",
         "src/truepass/suites/bundled/mini", "--check"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert got.returncode == 0, got.stdout + got.stderr


@pytest.mark.slow
def test_mini_checks_clean_and_noop_never_passes(tmp_path: Path) -> None:
    suite = load_suite("mini")
    health = check_suite(suite, config=JudgeConfig(limits=Limits(timeout_s=30), reruns=1))
    assert [s.problems for s in health.problems] == []
    assert health.valid == len(suite.samples)
    assert all(s.reference == "correct" for s in health.samples)
    assert all(s.known_overfit in (None, "overfit") for s in health.samples)

    result = run(suite, [make_solver("noop")], tmp_path / "noop", config=JudgeConfig(reruns=0))
    noop = result.summary.solvers[0].overall
    assert noop.counted == len(suite.samples) and noop.plausible == 0
