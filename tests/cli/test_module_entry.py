"""``python -m truepass`` runs the same command as the ``truepass`` script."""

from __future__ import annotations

import subprocess
import sys


def test_python_dash_m_lists_the_bundled_suites() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "truepass", "suites"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "mini" in done.stdout and "humaneval" in done.stdout


def test_python_dash_m_names_itself_truepass_in_usage() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "truepass", "no-such-command"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "Usage: truepass" in done.stderr
