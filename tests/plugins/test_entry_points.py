"""A plug-in package installed beside truepass adds a family, a solver kind and a command through
entry points (``truepass.families``, ``truepass.solvers``, ``truepass.commands``), with no edit
of truepass: the package (``truepass-upper/``, written for this test) is installed with pip into
a temporary target directory, and truepass runs with that directory on its path."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent / "truepass-upper"


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the installed plug-in (its module and its entry points)."""
    root = tmp_path_factory.mktemp("plugin")
    source = root / "src"
    shutil.copytree(PACKAGE, source)
    target = root / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(target), str(source)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    assert any(p.name.startswith("truepass_upper-") for p in target.iterdir())
    return target


def _truepass(plugin_path: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(plugin_path), *sys.path]),
               COLUMNS="200")  # fmt: skip
    return subprocess.run([sys.executable, "-m", "truepass.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip


def test_an_installed_plugin_adds_a_family_a_solver_kind_and_a_command(
    plugin_path: Path, tmp_path: Path
) -> None:
    listed = _truepass(plugin_path, "suites", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "upper" in listed.stdout and "one prompt a line" in listed.stdout

    helped = _truepass(plugin_path, "run", "--help", cwd=tmp_path)
    assert "Shouting" in helped.stdout and "--shout-marks" in helped.stdout
    assert "shout" in helped.stdout  # in --solver's list of kinds

    prompts = tmp_path / "prompts.txt"
    prompts.write_text("hello\nMixed Case\n", encoding="utf-8")
    out = tmp_path / "run"
    ran = _truepass(plugin_path, "run", "--suite", f"upper:{prompts}", "--solver", "oracle",
                    "--solver", "shout", "--shout-marks", "1", "--out", str(out),
                    "--check-cache", "off", cwd=tmp_path)  # fmt: skip
    assert ran.returncode == 0, ran.stderr + ran.stdout
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    verdicts = {(r["solver"], r["sample_id"]): r["verdict"] for r in rows}
    assert verdicts == {
        ("oracle", "p1"): "correct", ("oracle", "p2"): "correct",
        ("shout#1", "p1"): "fails-visible", ("shout#1", "p2"): "fails-visible",
    }  # fmt: skip
    assert json.loads((out / "summary.json").read_text())["family"] == "upper"

    counted = _truepass(plugin_path, "upper-count", str(prompts), cwd=tmp_path)
    assert counted.returncode == 0 and counted.stdout.strip() == "2 prompts"


def test_without_the_plugin_its_family_is_unknown(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    got = subprocess.run([sys.executable, "-m", "truepass.cli", "run", "--suite", "upper:x.txt",
                          "--solver", "oracle"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=600)  # fmt: skip
    assert got.returncode == 2 and "no such suite" in got.stdout + got.stderr


def test_a_broken_plugin_is_one_clear_error(plugin_path: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(plugin_path, broken)
    (broken / "truepass_upper.py").write_text("raise RuntimeError('half written')\n")
    got = _truepass(broken, "suites", cwd=tmp_path)
    assert got.returncode == 2
    message = " ".join((got.stdout + got.stderr).split())
    # the first of its entry points truepass loads names the package
    assert "cannot be loaded" in message and "from truepass-upper: truepass_upper:" in message
    assert "half written" in message and "Traceback" not in got.stderr
