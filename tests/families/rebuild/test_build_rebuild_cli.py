"""``truepass build-rebuild`` (truepass.families.rebuild.cli) on the real rev and tac."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from truepass.families.rebuild import sources
from truepass.families.rebuild.cli import build_rebuild_cmd
from truepass.families.rebuild.schema import RebuildSample

app = typer.Typer(add_completion=False)
app.command("build-rebuild")(build_rebuild_cmd)
app.command("noop", hidden=True)(lambda: None)  # two commands: the subcommand name is needed
runner = CliRunner()

needs_dpkg = pytest.mark.skipif(
    shutil.which("dpkg") is None or not Path("/usr/bin/rev").exists(),
    reason="needs dpkg and /usr/bin/rev",
)


def _no_source(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(gold: sources.Gold) -> Path:
        raise sources.BuildError("apt-get source is switched off in this test")

    monkeypatch.setattr(sources, "fetch_source", fail)


def test_help_documents_the_seeds_file() -> None:
    done = runner.invoke(app, ["build-rebuild", "--help"], env={"COLUMNS": "200"})
    assert done.exit_code == 0
    for word in ("--gold", "--seeds", "--max-tests", "--no-coverage", "--reruns", "scripts"):
        assert word in done.output


def test_unknown_program_exits_2(tmp_path: Path) -> None:
    done = runner.invoke(
        app, ["build-rebuild", "--gold", "no-such-program-xyz", "--out", str(tmp_path)]
    )
    assert done.exit_code == 2
    assert "no-such-program-xyz" in done.output and "install" in done.output
    assert not (tmp_path / "suite.jsonl").exists()


def test_bad_seeds_file_exits_2(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds.json"
    seeds.write_text('{"stdin": [1]}')
    done = runner.invoke(
        app, ["build-rebuild", "--gold", "rev", "--out", str(tmp_path), "--seeds", str(seeds)]
    )
    assert done.exit_code == 2 and "stdin" in done.output


@needs_dpkg
def test_no_source_and_no_loc_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _no_source(monkeypatch)
    done = runner.invoke(app, ["build-rebuild", "--gold", "rev", "--out", str(tmp_path)])
    assert done.exit_code == 2
    assert "--loc" in done.output and "util-linux" in done.output


@needs_dpkg
def test_wrong_source_package_exits_2(tmp_path: Path) -> None:
    done = runner.invoke(
        app,
        ["build-rebuild", "--gold", "rev", "--out", str(tmp_path), "--source-package", "nope"],
    )
    assert done.exit_code == 2 and "util-linux" in done.output


@needs_dpkg
def test_rev_without_coverage_writes_a_task(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_source(monkeypatch)
    seeds = tmp_path / "seeds.json"
    seeds.write_text(json.dumps({"stdin": ["racecar\nabc\n"]}))
    out = str(tmp_path / "suite")
    args = ["build-rebuild", "--gold", "rev", "--out", out, "--loc", "90", "--max-tests", "15",
            "--reruns", "2", "--seeds", str(seeds), "--id", "rev-1"]  # fmt: skip
    done = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    assert "kept of 15 written" in done.output and "not measured" in done.output
    assert "dummy pass" in done.output
    rows = (tmp_path / "suite" / "suite.jsonl").read_text().splitlines()
    sample = RebuildSample.model_validate_json(rows[0])
    assert (sample.id, sample.program, sample.loc) == ("rev-1", "rev", 90)
    assert sample.package.binary == "util-linux" and sample.package.source == "util-linux"
    assert sample.docs.man == "rev" and sample.generation.dummy_pass_after == 0.0
    assert sample.generation.kept == 15 - len(sample.ignore)
    assert "test_rev.py" in sample.tests
    assert (tmp_path / "suite" / "suite.toml").is_file()


@pytest.mark.slow
@needs_dpkg
def test_tac_with_coverage(tmp_path: Path) -> None:
    """The whole thing: the source package fetched, an instrumented build, coverage."""
    args = ["build-rebuild", "--gold", "tac", "--out", str(tmp_path), "--max-tests", "30"]
    done = runner.invoke(app, args, env={"COLUMNS": "200"})
    if done.exit_code != 0 and "no instrumented build" in done.output:
        pytest.skip("no instrumented build of tac on this machine")
    assert done.exit_code == 0, done.output
    sample = RebuildSample.model_validate_json((tmp_path / "suite.jsonl").read_text())
    gen = sample.generation
    assert gen.coverage is not None and gen.coverage > 0.5
    assert sample.original is not None and sample.original.functions > 0
    assert sample.loc > 50 and sample.package.source == "coreutils"
