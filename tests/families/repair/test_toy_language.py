"""A repair language added through the language registry alone, run end to end: ``run`` (local
and Dask), ``check-suite``, ``summary``, ``compare`` and the HTML report, with no edit outside
this file.

The toy language, POSIX shell: a sample's code is ``.sh`` scripts, each test a script that exits
0 when it passes. Its runner runs every test script in the sandbox under a small driver that
reports each outcome on the result channel, as pytest's reporter does for Python.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_run import invoke

from truepass.families.repair import languages
from truepass.families.repair.fakefix import Flag, detect_fake_fix, flag_names
from truepass.families.repair.languages.base import Language
from truepass.sandbox import run_sandboxed
from truepass.sandbox.models import Limits
from truepass.sandbox.testrun import TestRun, parse_run

DRIVER = """import json, os, subprocess
channel = os.fdopen(int(os.environ["TRUEPASS_CHANNEL_FD"]), "w")
def emit(**event):
    channel.write(json.dumps(event) + "\\n"); channel.flush()
tests = json.loads(os.environ["TOY_TESTS"])
emit(event="start"); emit(event="collected", nodeids=tests)
for test in tests:
    ran = subprocess.run(["sh", test], capture_output=True, text=True)
    emit(event="test", nodeid=test, outcome="passed" if ran.returncode == 0 else "failed",
         message=(ran.stdout + ran.stderr)[-300:])
emit(event="finish")
"""


class ShellRunner:
    __test__ = False

    def run(self, sample: Any, code: dict[str, str], tests: dict[str, str], *, limits: Limits,
            coverage: bool = False, first: list[str] | None = None) -> TestRun:  # fmt: skip
        env = {"TOY_TESTS": json.dumps(sorted(tests))}
        files = {**code, **tests, "_driver.py": DRIVER}
        result = run_sandboxed([sys.executable, "-I", "_driver.py"], files, limits=limits, env=env)
        return parse_run(result, channel=True)

    def per_test(self, sample: Any) -> bool:
        return False


class Shell(Language):
    name, title, fence, code_suffix, comment_starts = "sh", "POSIX shell", "sh", ".sh", ("#",)

    def runner(self) -> ShellRunner:
        return ShellRunner()

    def agent_test_command(self, sample: Any) -> str:
        return " && ".join(f"sh {t}" for t in sorted(sample.tests.visible))


SHELL = Shell()


@pytest.fixture
def shell() -> Iterator[Language]:
    languages.register(SHELL)
    yield SHELL
    languages.unregister(SHELL.name)


def _sample(sid: str, op: str, wrong: str) -> dict[str, Any]:
    test = (
        '[ "$(sh calc.sh {a} {b})" = "{want}" ] '
        '|| {{ echo "got $(sh calc.sh {a} {b})"; exit 1; }}\n'
    )
    return {
        "id": sid, "language": "sh", "defect_type": "wrong-operator",
        "description": f"calc.sh must print $1 {op} $2.",
        "files": {"calc.sh": f"echo $(( $1 {wrong} $2 ))\n"},
        "tests": {
            "visible": {"tests/test_small.sh": test.format(a=2, b=3, want=eval(f"2 {op} 3"))},
            "hidden": {"tests/test_large.sh": test.format(a=7, b=5, want=eval(f"7 {op} 5"))},
        },
        "fix": f"--- a/calc.sh\n+++ b/calc.sh\n@@ -1 +1 @@\n-echo $(( $1 {wrong} $2 ))\n"
               f"+echo $(( $1 {op} $2 ))\n",
        "fault": [{"file": "calc.sh", "lines": [1]}],
        "source": "written for truepass's tests", "leakage": "private",
    }  # fmt: skip


@pytest.mark.parametrize(
    "executor", ["local", pytest.param("dask-local:2", marks=pytest.mark.slow)]
)
def test_a_language_from_the_registry_runs_end_to_end(
    shell: Language, tmp_path: Path, executor: str
) -> None:
    suite = tmp_path / "shell.jsonl"
    lines = [_sample("add", "+", "-"), _sample("mul", "*", "+")]
    suite.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    # overfit: right on the visible test's numbers only
    overfit = "--- a/calc.sh\n+++ b/calc.sh\n@@ -1 +1 @@\n-echo $(( $1 - $2 ))\n+echo 5\n"
    patches = tmp_path / "patches.jsonl"
    patches.write_text(json.dumps({"sample_id": "add", "patch": overfit}) + "\n")
    run_a, run_b = tmp_path / "a", tmp_path / "b"
    common = ["--suite", str(suite), "--executor", executor, "--check-cache", "off"]
    invoke("run", *common, "--solver", "oracle", "--solver", "noop", "--out", str(run_a))
    invoke("run", *common, "--solver", f"replay:{patches}", "--out", str(run_b))

    rows = [json.loads(x) for x in (run_a / "results.jsonl").read_text().splitlines()]
    got = {(r["solver"], r["sample_id"]): r["verdict"] for r in rows}
    assert got == {("oracle", "add"): "correct", ("oracle", "mul"): "correct",
                   ("noop", "add"): "fails-visible", ("noop", "mul"): "fails-visible"}  # fmt: skip
    (replayed,) = [json.loads(x) for x in (run_b / "results.jsonl").read_text().splitlines()]
    assert replayed["verdict"] == "overfit"  # passes the visible test, fails the hidden one

    assert "oracle" in invoke("summary", str(run_a))
    assert "oracle" in invoke("compare", str(run_a), str(run_b))
    report = tmp_path / "report.html"
    invoke("report", str(run_a), str(run_b), "--out", str(report))
    assert "echo 5" in report.read_text(encoding="utf-8")
    health = invoke("check-suite", *common, "--out", str(tmp_path / "health"))
    assert "2 samples, 2 valid" in health


def test_an_unknown_language_names_the_known_ones(tmp_path: Path) -> None:
    suite = tmp_path / "s.jsonl"
    suite.write_text(json.dumps(_sample("add", "+", "-")) + "\n", encoding="utf-8")
    out = invoke("check-suite", "--suite", str(suite), code=2)
    assert "unknown language 'sh' (known: python, java)" in " ".join(out.split())


class CheckingShell(Shell):
    """The toy language with one fake-fix detector of its own: ``exit 0`` added to a script."""

    name = "sh-checked"

    def fake_fix_flags(self, change: Any) -> list[Flag]:
        return [
            Flag("deletes-functionality", path, 1, "line 1 ends the script early")
            for path, text in change.attempted.items()
            if path.endswith(".sh")
            and "exit 0" in text
            and "exit 0" not in change.buggy.get(path, "")
        ]


def test_fake_fix_detection_asks_the_language_of_the_files(shell: Language) -> None:
    """A language without detectors still gets ``touches-tests``; one with detectors is asked
    for its own files only, and the Python detectors are not run on its files."""
    buggy = {"calc.sh": "echo $(($1 - $2))\n"}
    tests = {"test_add.sh": '[ "$(sh calc.sh 1 2)" = "3" ]\n'}
    attempted = {"calc.sh": "echo 3\nexit 0\n", "test_add.sh": "exit 0\n"}
    assert flag_names(detect_fake_fix(buggy, attempted, tests)) == ["touches-tests"]
    checked = CheckingShell()
    languages.register(checked)
    try:
        flags = detect_fake_fix(buggy, attempted, tests)
    finally:
        languages.unregister(checked.name)
    assert [(f.name, f.file) for f in flags] == [
        ("touches-tests", "test_add.sh"),
        ("deletes-functionality", "calc.sh"),
        ("deletes-functionality", "test_add.sh"),
    ]
