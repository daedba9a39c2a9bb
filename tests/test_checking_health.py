"""check-suite's health report: a status and reasons per sample, counts, health.json/health.md
where the suite lives, and --allow-invalid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from factories import FIX, HIDDEN, VISIBLE, sample_dict, write_suite
from typer.testing import CliRunner

import truepass.families.repair.runners as runners
from truepass.checking import SampleHealth, SuiteHealth, health_markdown
from truepass.cli import app
from truepass.cli.suites import _suite_dir
from truepass.families.repair.family import RepairFamily
from truepass.families.repair.schema import RepairSample
from truepass.judged import JudgeConfig
from truepass.sandbox import Limits
from truepass.sandbox.testrun import TestRun
from truepass.suites.loader import bundled_dir

runner = CliRunner()
ONLY_MID = (
    VISIBLE.split("\n\n\ndef test_mid")[0]
    .replace("test_high", "test_mid")
    .replace("clamp(9, 0, 5) == 5", "clamp(3, 0, 5) == 3")
)
TESTS = {"visible": {"test_clamp.py": ONLY_MID}, "hidden": {"test_clamp_hidden.py": HIDDEN}}
INVALID = sample_dict(id="buggy-passes", tests=TESTS)
REF_FAILS = sample_dict(id="ref-fails", fix=FIX.replace("+        return hi", "+        return 0"),
                        known_overfit=None)  # fmt: skip
NOT_OVERFIT = sample_dict(id="no-overfit", known_overfit=FIX)


def _write_dir(root: Path, samples: list[dict[str, object]]) -> Path:
    root.mkdir()
    write_suite(root / "suite.jsonl", samples)  # type: ignore[arg-type]
    (root / "suite.toml").write_text('name = "t"\nversion = "1"\n', encoding="utf-8")
    return root


def test_suite_dir_gets_the_report_and_allow_invalid(tmp_path: Path) -> None:
    suite = _write_dir(tmp_path / "suite", [sample_dict(), INVALID])
    got = runner.invoke(app, ["check-suite", "--suite", str(suite), "--reruns", "1"])
    assert got.exit_code == 1, got.output
    assert "buggy-passes (invalid)" in got.output and "1 invalid" in got.output
    health = json.loads((suite / "health.json").read_text())
    assert health["counts"] == {
        "samples": 2, "valid": 1, "ok": 1, "invalid": 1, "reference-fails": 0, "flaky": 0,
        "overfit-not-overfit": 0, "infra-error": 0, "environment": 0, "known_overfit": 1,
        "known_overfit_overfit": 1,
    }  # fmt: skip
    by_id = {s["sample_id"]: s for s in health["samples"]}
    assert by_id["clamp-1"]["status"] == "ok" and by_id["clamp-1"]["noop"] == "fails-visible"
    assert by_id["clamp-1"]["reference"] == "correct"
    assert by_id["buggy-passes"]["problems"] == [
        "invalid: the buggy code already passes the visible tests"
    ]
    assert health["judge"] == {"timeout_s": 60.0, "reruns": 1} and health["checked_at"]
    md = (suite / "health.md").read_text()
    assert "| buggy-passes | invalid | invalid: the buggy code already passes" in md
    assert "| 2 | 1 | 1 | 1 | 0 | 0 | 0 | 0 |" in md
    allowed = runner.invoke(
        app, ["check-suite", "--suite", str(suite), "--reruns", "1", "--allow-invalid"]
    )
    assert allowed.exit_code == 0, allowed.output


def test_jsonl_suite_reports_only_where_asked(tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "s.jsonl", [REF_FAILS, NOT_OVERFIT])
    args = ["check-suite", "--suite", str(suite), "--reruns", "1", "--allow-invalid"]
    got = runner.invoke(app, args)
    # reference-fix failures and a known_overfit that is not overfit fail even with the option
    assert got.exit_code == 1, got.output
    assert not (tmp_path / "health.json").exists()
    got = runner.invoke(app, [*args, "--out", str(tmp_path / "rep")])
    assert got.exit_code == 1
    health = json.loads((tmp_path / "rep" / "health.json").read_text())
    by_id = {s["sample_id"]: s for s in health["samples"]}
    assert by_id["ref-fails"]["status"] == "reference-fails"
    assert by_id["ref-fails"]["problems"][0].startswith(
        "invalid: reference fix fails visible tests: test_clamp.py::test_high"
    )
    assert by_id["no-overfit"]["status"] == "overfit-not-overfit"
    assert by_id["no-overfit"]["valid"] is True
    assert health["counts"]["valid"] == 1 and health["counts"]["ok"] == 0
    assert (tmp_path / "rep" / "health.md").read_text().startswith("# Health of suite `s`")


def test_bundled_and_adapted_suites_are_never_written_to(tmp_path: Path) -> None:
    mini = bundled_dir() / "mini"
    assert _suite_dir("mini", mini) is None
    assert _suite_dir(str(mini), mini) is None
    assert _suite_dir("quixbugs:/data/qb", Path("/data/qb")) is None
    mine = _write_dir(tmp_path / "mine", [sample_dict()])
    assert _suite_dir(str(mine), mine) == mine
    assert _suite_dir(str(mine / "suite.jsonl"), mine / "suite.jsonl") is None


def test_a_reference_fix_failing_a_rerun_is_flaky_with_its_tests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Scripted test runs: every run passes except the second hidden run of the reference fix
    in the judge (the check's own runs pass)."""
    sample = RepairSample.model_validate(sample_dict(known_overfit=None))
    hidden_of_fix = {"n": 0}
    real_ids = {"visible": ["test_clamp.py::test_high", "test_clamp.py::test_mid"],
                "hidden": ["test_clamp_hidden.py::test_high_other",
                           "test_clamp_hidden.py::test_low"]}  # fmt: skip

    def scripted(smp: RepairSample, code: dict, tests: dict, **kw: object) -> TestRun:  # type: ignore[type-arg]
        phase = "hidden" if "test_clamp_hidden.py" in tests else "visible"
        ids = real_ids[phase]
        fixed = "return hi" in code["clamp.py"]
        outcomes = dict.fromkeys(ids, "passed" if fixed else "failed")
        if fixed and phase == "hidden":
            hidden_of_fix["n"] += 1
            if hidden_of_fix["n"] == 3:  # check, judge, rerun 1 -> fails
                outcomes[ids[1]] = "failed"
        failed = any(o == "failed" for o in outcomes.values())
        return TestRun(
            tier="scripted", returncode=1 if failed else 0, timed_out=False, started=True,
            finished=True, collected=list(ids), outcomes=outcomes,
        )  # fmt: skip

    monkeypatch.setattr(runners.PytestRunner, "run", staticmethod(scripted))
    config = JudgeConfig(limits=Limits(timeout_s=5), reruns=2)
    family = RepairFamily()
    health = family.health(sample, family.check(sample, config), config)
    assert health.valid and health.status == "flaky", health
    assert health.flaky_tests == ["test_clamp_hidden.py::test_low"]
    assert "after passing in the check" in health.problems[0]
    assert "rerun gave overfit (test_clamp_hidden.py::test_low)" in health.problems[0]
    report = SuiteHealth(suite="t", content_hash="0" * 64, samples=[health], sandbox_tier="x")
    assert report.counts["flaky"] == 1 and report.exit_code(allow_invalid=True) == 1
    assert "(tests: test_clamp_hidden.py::test_low)" in health_markdown(report)


def test_exit_codes() -> None:
    def health(*statuses: str) -> SuiteHealth:
        samples = [
            SampleHealth(sample_id=f"s{i}", defect_type="d", valid=st == "ok", reference="-",
                         status=st)  # type: ignore[arg-type]
            for i, st in enumerate(statuses)
        ]  # fmt: skip
        return SuiteHealth(suite="t", content_hash="", samples=samples, sandbox_tier="")

    assert health("ok", "ok").exit_code() == 0
    assert health("ok", "invalid").exit_code() == 1
    assert health("ok", "invalid").exit_code(allow_invalid=True) == 0
    for bad in ("reference-fails", "flaky", "overfit-not-overfit", "infra-error"):
        assert health("invalid", bad).exit_code(allow_invalid=True) == 1
