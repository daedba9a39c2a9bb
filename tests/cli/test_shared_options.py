"""One spelling and one meaning per option across commands; the model options reach the command
as one SolverOptions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
import typer.main
from typer.testing import CliRunner

from truepass.cli import app
from truepass.cli.common import RERUNS_HELP, check_cache_setting
from truepass.cli.model_options import PROMPT_HELP, model_options
from truepass.families import registry
from truepass.solvers import LLMOptions, SolverOptions

runner = CliRunner()
COMMANDS = typer.main.get_command(app).loaded()  # type: ignore[attr-defined]


def _option(command: str, name: str) -> Any:
    """The option ``name`` of ``command`` (typer's copy of a click.Option), or None."""
    for p in COMMANDS[command].params:
        if p.param_type_name == "option" and name in p.opts:
            return p
    return None


def test_one_name_for_each_concept() -> None:
    for command in ("run", "judge", "estimate", "check-suite", "harden"):
        assert _option(command, "--suite") is not None, command
        assert _option(command, "--jobs") is not None, command
        assert _option(command, "--workers") is None, command
    for command in ("run", "judge", "check-suite"):
        assert _option(command, "--executor") is not None, command
        assert _option(command, "--check-cache") is not None, command
    helps = {c: _option(c, "--executor").help for c in ("run", "judge", "check-suite")}
    assert len(set(helps.values())) == 1, helps


def test_reruns_means_extra_runs_of_a_passing_answer_everywhere() -> None:
    for command, default in (("run", 1), ("judge", 1), ("check-suite", 2)):
        reruns = _option(command, "--reruns")
        assert reruns is not None and reruns.help and reruns.help.startswith(RERUNS_HELP)
        assert reruns.default == default, command
    assert "default 2" in (_option("check-suite", "--reruns").help or "")


def test_prompt_help_lists_every_variant_of_every_family() -> None:
    for name in registry.names():
        for variant in getattr(registry.get(name), "prompt_variants", ()):
            assert variant in PROMPT_HELP, (name, variant)
    assert _option("run", "--prompt").help == PROMPT_HELP


def test_harden_takes_jobs() -> None:
    got = runner.invoke(app, ["harden", "--report", "x", "--workers", "2"])
    assert got.exit_code == 2 and "No such option" in got.output
    assert _option("harden", "--jobs").default == 2


@pytest.mark.parametrize(
    ("value", "setting"),
    [(None, True), ("off", False), (" OFF ", False), ("no", False), ("c.db", Path("c.db"))],
)
def test_check_cache_setting(value: str | None, setting: Path | bool) -> None:
    assert check_cache_setting(value) == setting


def _capture() -> tuple[typer.Typer, list[LLMOptions]]:
    seen: list[LLMOptions] = []
    probe = typer.Typer()

    @probe.command()
    @model_options
    def go(name: str = "x", *, options: SolverOptions) -> None:
        seen.append(options.models)

    return probe, seen


def test_model_options_become_one_llm_options(tmp_path: Path) -> None:
    probe, seen = _capture()
    got = runner.invoke(probe, [])
    assert got.exit_code == 0, got.output
    assert seen == [LLMOptions()]  # the defaults agree with the settings object's
    got = runner.invoke(probe, [
        "--name", "y", "--prompt", "feedback", "--prompt", "root-cause", "--samples", "3",
        "--temperature", "0.5", "--max-tokens", "64", "--seed", "7", "--rounds", "2",
        "--fault-hint", "--templates", str(tmp_path), "--price", "m=1,2", "--price", "n=3,4",
        "--cache", str(tmp_path / "c.sqlite"), "--no-cache",
        "--model-config", str(tmp_path / "m.toml"),
    ])  # fmt: skip
    assert got.exit_code == 0, got.output
    assert seen[-1] == LLMOptions(
        variants=("feedback", "root-cause"), samples=3, temperature=0.5, max_tokens=64, seed=7,
        rounds=2, given_fault=True, template_dir=tmp_path, prices=("m=1,2", "n=3,4"),
        cache_path=tmp_path / "c.sqlite", use_cache=False, model_config=tmp_path / "m.toml",
    )  # fmt: skip


def test_model_options_need_an_options_parameter() -> None:
    def no_options(name: str = "x") -> None: ...

    with pytest.raises(TypeError, match="no 'options' parameter"):
        model_options(no_options)
