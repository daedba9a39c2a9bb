"""The command line: exit statuses and messages a user sees."""

from __future__ import annotations

import json
from pathlib import Path

from factories import sample_dict, write_suite
from typer.testing import CliRunner

from truepass.cli import app

runner = CliRunner()


def test_suites_lists_the_bundled_suites_and_every_adapter() -> None:
    from truepass.families.registry import formats

    got = runner.invoke(app, ["suites"], terminal_width=200)
    assert got.exit_code == 0 and "mini" in got.output and "project" in got.output
    for fmt in formats():
        assert f"│ {fmt} " in got.output, fmt
    assert "--suite humaneval" in got.output  # the one usable without a path


def test_help_on_every_command() -> None:
    for cmd in ("run", "judge", "check-suite", "suites", "summary", "estimate", "report",
                "compare", "cache", "import", "harden"):  # fmt: skip
        got = runner.invoke(app, [cmd, "--help"])
        assert got.exit_code == 0 and "Usage" in got.output, cmd


def test_malformed_suite_exits_2_naming_line_and_field(tmp_path: Path) -> None:
    p = write_suite(tmp_path / "bad.jsonl", [sample_dict(), sample_dict(id="b", fault="x")])
    got = runner.invoke(app, ["run", "--suite", str(p), "--solver", "oracle", "--out",
                              str(tmp_path / "o")])  # fmt: skip
    assert got.exit_code == 2
    assert "bad.jsonl:2: field 'fault'" in got.output
    assert not (tmp_path / "o").exists()  # nothing ran


def test_malformed_patches_exit_2_with_line_number(tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "s.jsonl", [sample_dict()])
    patches = tmp_path / "p.jsonl"
    patches.write_text(json.dumps({"sample_id": "clamp-1", "patch": ""}) + "\n{broken\n")
    got = runner.invoke(app, ["judge", "--suite", str(suite), "--patches", str(patches),
                              "--out", str(tmp_path / "o")])  # fmt: skip
    assert got.exit_code == 2 and "p.jsonl:2: not valid JSON" in got.output
    assert not (tmp_path / "o").exists()


def test_unknown_solver_and_suite_exit_2(tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "s.jsonl", [sample_dict()])
    got = runner.invoke(app, ["run", "--suite", str(suite), "--solver", "magic"])
    assert got.exit_code == 2 and "unknown solver 'magic'" in got.output
    got = runner.invoke(app, ["check-suite", "--suite", "no-such-suite"], terminal_width=300)
    assert got.exit_code == 2 and "no such suite" in got.output
    assert "FORMAT:PATH with FORMAT one of quixbugs, quixbugs-java, humanevalfix" in got.output


def test_judge_and_summary(tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "s.jsonl", [sample_dict()])
    sample = sample_dict()
    patches = tmp_path / "p.jsonl"
    patches.write_text(
        json.dumps({"sample_id": "clamp-1", "id": "ref", "patch": sample["fix"]}) + "\n"
        + json.dumps({"sample_id": "clamp-1", "id": "over", "patch": sample["known_overfit"]})
        + "\n"
    )  # fmt: skip
    out = tmp_path / "o"
    got = runner.invoke(app, ["judge", "--suite", str(suite), "--patches", str(patches),
                              "--out", str(out), "--reruns", "0"])  # fmt: skip
    assert got.exit_code == 0, got.output
    rows = {json.loads(x)["patch_id"]: json.loads(x)["verdict"]
            for x in (out / "results.jsonl").read_text().splitlines()}  # fmt: skip
    assert rows == {"ref": "correct", "over": "overfit"}
    shown = runner.invoke(app, ["summary", str(out)])
    assert shown.exit_code == 0 and "50.0%" in shown.output


def test_check_suite_flags_invalid_sample(tmp_path: Path) -> None:
    good = sample_dict()
    bad = sample_dict(id="no-overfit", known_overfit=good["fix"])
    suite = write_suite(tmp_path / "s.jsonl", [good, bad])
    report = tmp_path / "health.json"
    got = runner.invoke(app, ["check-suite", "--suite", str(suite), "--json", str(report)])
    assert got.exit_code == 1, got.output
    assert "known_overfit judged correct, not overfit" in got.output
    assert "2 valid, 1 with problems" in got.output
    health = json.loads(report.read_text())
    assert [s["reference"] for s in health["samples"]] == ["correct", "correct"]


def test_bad_model_options_exit_2_before_anything_runs(tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "s.jsonl", [sample_dict()])
    for extra, expected in (
        (["--prompt", "bogus"], "prompt variant 'bogus'"),
        (["--price", "m=abc"], "bad price 'm=abc'"),
        (["--transform", "bogus"], "unknown transform 'bogus'"),
        (["--shots", "0,1"], "repair samples take no demonstrations"),
        (["--shots", "1,x"], "'1,x' is not a list of distinct demonstration counts"),
    ):
        got = runner.invoke(app, ["run", "--suite", str(suite), "--solver", "openai:m",
                                  "--out", str(tmp_path / "o"), *extra])  # fmt: skip
        assert got.exit_code == 2 and expected in got.output, (extra, got.output)
    assert not (tmp_path / "o").exists()


def test_import_writes_a_loadable_suite_dir(tmp_path: Path) -> None:
    shared = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "quixbugs-python"
    if not shared.is_dir():
        import pytest

        pytest.skip(f"QuixBugs data not found at {shared} (CI lays ../shared beside the repo)")
    got = runner.invoke(app, ["import", "quixbugs", str(shared), "--out", str(tmp_path / "qb")])
    assert got.exit_code == 0, got.output
    from truepass.suites.loader import load_suite

    assert len(load_suite(tmp_path / "qb").samples) == 40
    got = runner.invoke(app, ["import", "nope", str(shared), "--out", str(tmp_path / "x")])
    assert got.exit_code == 2 and "unknown format 'nope'" in got.output


def test_check_suite_warns_when_the_reference_fix_itself_is_flagged(tmp_path: Path) -> None:
    good = sample_dict()
    # a genuine fix that special-cases nothing but is written with the tests' expected literal
    flagged_fix = good["fix"].replace("+        return hi", "+        return hi if hi != 5 else 5")
    suite = write_suite(tmp_path / "s.jsonl", [sample_dict(fix=flagged_fix, known_overfit=None)])
    got = runner.invoke(app, ["check-suite", "--suite", str(suite), "--reruns", "1"])
    assert got.exit_code == 0, got.output  # a detector false alarm is not a suite fault
    assert "the reference fix is flagged" in got.output and "1 valid, 0 with problems" in got.output
