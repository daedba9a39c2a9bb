"""Installed as users install it, truepass shows no answer key to the code it runs (issue 25).

truepass is built as a wheel and installed into a fresh venv, whose ``site-packages`` then holds
the bundled suites: every hidden test and reference fix. Every sandbox binds that venv (the
interpreter needs it). A scripted agent, run by the installed ``truepass run`` on the first
bundled ``mini`` sample, searches for them: by name across the whole visible file system, and by
content wherever Python and its packages live. It finds the visible test it was given and
nothing of the hidden test or the reference fix.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI, ok

from truepass.agentic.trajectory import Trajectory
from truepass.families.repair.schema import RepairSample
from truepass.suites.loader import load_suite

REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed"),
]


def _install_wheel(tmp_path: Path) -> Path:
    """Build the wheel of this checkout and install it, with its dependencies from the
    machine's package sources, into a fresh venv; return the venv."""
    dist, venv = tmp_path / "dist", tmp_path / "venv"
    pip = [sys.executable, "-m", "pip"]
    env = _clean_env()
    subprocess.run([*pip, "wheel", "--no-deps", "-q", "-w", str(dist), str(REPO)], check=True)
    (wheel,) = dist.glob("truepass-*.whl")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    install = [str(venv / "bin" / "pip"), "install", "-q", str(wheel)]
    subprocess.run(install, check=True, env=env, cwd=tmp_path, capture_output=True)
    return venv


def _clean_env() -> dict[str, str]:
    """This environment without what points at the checkout (``PYTHONPATH=src`` would make pip
    take the checkout for an installed truepass)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def _secrets(sample: RepairSample) -> dict[str, str]:
    """What the agent looks for: a test name only the hidden tests hold, a line only the
    reference fix adds, and (as a control that the search works) the visible test's name."""
    hidden = "".join(sample.tests.hidden.values())
    visible = "".join(sample.tests.visible.values())
    names = re.findall(r"def (test_\w+)", hidden)
    hidden_name = next(n for n in names if n not in visible)
    code = "".join(sample.files.values())
    fixed = [ln[1:].strip() for ln in sample.fix.splitlines() if ln.startswith("+")]
    fix_line = next(ln for ln in fixed if ln and not ln.startswith("++") and ln not in code)
    control = re.findall(r"def (test_\w+)", visible)[0]
    return {"hidden": hidden_name, "fix": fix_line, "control": control}


def test_an_agent_of_a_wheel_install_finds_no_hidden_test_and_no_fix(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    venv = _install_wheel(tmp_path)
    site = next((venv / "lib").glob("python3*/site-packages"))
    bundled = site / "truepass" / "suites" / "bundled" / "mini" / "suite.jsonl"
    assert bundled.is_file(), "the wheel installs the bundled suites into site-packages"
    sample = load_suite("mini").samples[0]
    assert isinstance(sample, RepairSample)
    secrets = _secrets(sample)
    assert secrets["hidden"] in bundled.read_text(encoding="utf-8")
    where = f"{venv} /usr/lib/python3 /usr/local /etc /tmp /workspace /home /root"
    searches = "; ".join(
        f"echo '== {label}'; grep -rlF -- {json.dumps(text)} {where} 2>/dev/null"
        for label, text in secrets.items()
    )
    names = (
        "echo '== names'; find / \\( -path /proc -o -path /sys -o -path /dev \\) -prune -o "
        "\\( -name 'suite.jsonl' -o -name '*_hidden.py' \\) -print 2>/dev/null"
    )
    server.script = [
        ok(f"Where are the answers?\n\n```bash\n{names}; {searches}; echo SEARCHED\n```"),
        ok("Nothing.\n\n```bash\nsubmit\n```"),
    ]
    out = tmp_path / "run"
    env = _clean_env()
    ran = subprocess.run(
        [
            str(venv / "bin" / "truepass"), "run", "--suite", "mini", "--limit", "1",
            "--solver", "agent:openai:fake", "--agent-steps", "4", "--agent-time", "900",
            "--out", str(out), "--cache", str(tmp_path / "cache.sqlite"), "--reruns", "0",
        ],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr
    (line,) = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    trajectory = Trajectory.model_validate(json.loads(line)["solver_meta"]["agent"])
    first = trajectory.steps[0]
    seen = first.observation_full or first.observation
    assert "SEARCHED" in seen, seen
    found: dict[str, list[str]] = {}
    label = ""
    for row in seen.splitlines():
        if row.startswith("== "):
            label = row[3:]
            found[label] = []
        elif label and row.strip() and row.strip() != "SEARCHED":
            found[label].append(row.strip())
    assert any(p.startswith("/workspace/") for p in found["control"]), found  # the search works
    assert found["hidden"] == [] and found["fix"] == [], found
    assert not any("suite.jsonl" in p or "_hidden.py" in p for p in found["names"]), found
