"""``truepass check-suite --suite``: every family, through the family and the executor."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from truepass.cli import app

runner = CliRunner()


def codegen_line(**overrides: Any) -> dict[str, Any]:
    """One valid codegen suite line (docs/codegen-format.md)."""
    line: dict[str, Any] = {
        "family": "codegen",
        "id": "add-1",
        "prompt": 'def add(a, b):\n    """Return a + b."""\n',
        "entry_point": "add",
        "canonical_solution": "    return a + b\n",
        "tests": {"visible": [{"args": "1, 2", "expected": "3"}, {"args": "-1, 1"}]},
        "source": "test",
        "leakage": "private",
    }
    return line | overrides


NEG = codegen_line(
    id="neg-1",
    prompt='def neg(x):\n    """Return -x."""\n',
    entry_point="neg",
    canonical_solution="    return -x\n",
    tests={"visible": [{"args": "2", "expected": "-2"}]},
)


def write_lines(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_a_codegen_suite_is_checked(tmp_path: Path) -> None:
    suite = write_lines(tmp_path / "gen.jsonl", [codegen_line(), NEG])
    got = runner.invoke(
        app,
        ["check-suite", "--suite", str(suite), "--check-cache", "off", "--executor", "local",
         "--reruns", "1", "--json", str(tmp_path / "h.json")],
    )  # fmt: skip
    assert got.exit_code == 0, got.output
    assert "gen: 2 samples, 2 valid, 0 with problems; sandbox " in got.output
    assert "known_overfit" not in got.output  # a repair notion: codegen samples carry none
    health = json.loads((tmp_path / "h.json").read_text())
    assert health["family"] == "codegen" and health["judge"]["reruns"] == 1
    assert [(s["status"], s["reference"], s["noop"]) for s in health["samples"]] == [
        ("ok", "correct", "fails-visible"), ("ok", "correct", "fails-visible"),
    ]  # fmt: skip


def test_check_cache_option_keeps_the_checks_in_the_file_given(tmp_path: Path) -> None:
    suite = write_lines(tmp_path / "gen.jsonl", [codegen_line(), NEG])
    cache = tmp_path / "checks.sqlite"
    for _ in range(2):  # the second check-suite reads the checks the first one stored
        args = ["check-suite", "--suite", str(suite), "--check-cache", str(cache)]
        got = runner.invoke(app, args)
        assert got.exit_code == 0, got.output
        assert "2 samples, 2 valid" in got.output
    with sqlite3.connect(cache) as db:
        assert db.execute("SELECT sample_id FROM checks ORDER BY 1").fetchall() == [
            ("add-1",), ("neg-1",),
        ]  # fmt: skip


def test_a_malformed_codegen_suite_exits_2_naming_file_line_and_field(tmp_path: Path) -> None:
    broken = {k: v for k, v in NEG.items() if k != "entry_point"}
    suite = write_lines(tmp_path / "bad.jsonl", [codegen_line(), broken])
    got = runner.invoke(app, ["check-suite", "--suite", str(suite)], terminal_width=300)
    assert got.exit_code == 2, got.output
    assert "bad.jsonl:2: field 'entry_point'" in got.output
    assert not (tmp_path / "health.json").exists()


def test_the_suite_is_an_option_not_an_argument(tmp_path: Path) -> None:
    suite = write_lines(tmp_path / "gen.jsonl", [codegen_line()])
    got = runner.invoke(app, ["check-suite", str(suite)])
    assert got.exit_code == 2 and "--suite" in got.output
    got = runner.invoke(app, ["check-suite", str(suite), "--suite", str(suite)])
    assert got.exit_code == 2 and "unexpected extra argument" in got.output


def test_a_bad_executor_exits_2_before_anything_runs(tmp_path: Path) -> None:
    suite = write_lines(tmp_path / "gen.jsonl", [codegen_line()])
    got = runner.invoke(app, ["check-suite", "--suite", str(suite), "--executor", "nowhere"])
    assert got.exit_code == 2 and "nowhere" in got.output, got.output
