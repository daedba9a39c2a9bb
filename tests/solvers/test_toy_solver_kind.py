"""A solver kind added through the registry alone, with an options model of its own, run end to
end: ``run`` (local and Dask), ``summary``, ``compare`` and the HTML report, with no edit outside
this file.

The toy kind, ``coin`` (or ``coin:LABEL``): a seeded coin per sample submits the family's
reference answer or its null answer, on any family. Its options: the seed and the bias.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from cli_run import invoke, results
from pydantic import BaseModel, ConfigDict, Field
from typer.testing import CliRunner

from truepass.answers import Answer
from truepass.cli.model_options import model_options
from truepass.solvers import registry
from truepass.solvers.base import SolveContext, Solver, SolverBase
from truepass.solvers.registry import SolverKind, SolverOptions

runner = CliRunner()


class CoinOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    coin_seed: int = Field(0, description="Seed of the coins.")
    coin_bias: float = Field(0.5, ge=0.0, le=1.0, description="Chance of the reference answer.")


class CoinSolver(SolverBase):
    def __init__(self, name: str, options: CoinOptions) -> None:
        self.name, self.options = name, options

    def solve(self, sample: Any, attempt: int, ctx: SolveContext) -> Answer | None:
        digest = hashlib.sha256(f"{self.options.coin_seed}/{sample.id}".encode()).digest()
        heads = digest[0] / 256 < self.options.coin_bias
        return ctx.family.reference_answer(sample) if heads else ctx.family.null_answer(sample)


def _build(spec: str, options: SolverOptions, known_ids: set[str] | None) -> list[Solver]:
    own = options.of(COIN)
    assert isinstance(own, CoinOptions)
    return [CoinSolver(f"{spec}#s{own.coin_seed}", own)]


COIN = SolverKind("coin", "coin[:LABEL]", _build, options=CoinOptions, panel="Coins")


@pytest.fixture
def coin() -> Iterator[SolverKind]:
    registry.register(COIN)
    yield COIN
    registry.unregister(COIN.name)


@pytest.mark.parametrize(
    "executor", ["local", pytest.param("dask-local:2", marks=pytest.mark.slow)]
)
def test_a_solver_kind_from_the_registry_runs_end_to_end(
    coin: SolverKind, tmp_path: Path, executor: str
) -> None:
    assert "coin[:LABEL]" in registry.spec_help()
    run_a, run_b = tmp_path / "a", tmp_path / "b"
    common = ["--suite", "review-mini", "--executor", executor, "--check-cache", "off"]
    invoke("run", *common, "--solver", "coin", "--solver", "oracle", "--out", str(run_a))
    invoke("run", *common, "--solver", "coin:again", "--out", str(run_b))

    got = results(run_a)
    coins = {sid: r for (solver, sid), r in got.items() if solver == "coin#s0"}
    assert len(coins) == 18  # every sample of review-mini
    verdicts = {r["verdict"] for r in coins.values()}
    assert "correct" in verdicts and verdicts - {"correct"}  # both sides of the coin came up
    # the same seed, the same coins: the second run answers as the first
    again = {sid: r["verdict"] for (solver, sid), r in results(run_b).items()}
    assert again == {sid: r["verdict"] for sid, r in coins.items()}

    summary = json.loads((run_a / "summary.json").read_text(encoding="utf-8"))
    assert {s["solver"] for s in summary["solvers"]} == {"coin#s0", "oracle"}
    assert "coin#s0" in invoke("summary", str(run_a))
    compared = invoke("compare", str(run_a), str(run_b))
    assert "coin#s0" in compared and "coin:again#s0" in compared
    report = tmp_path / "report.html"
    invoke("report", str(run_a), str(run_b), "--out", str(report))
    assert "coin:again#s0" in report.read_text(encoding="utf-8")


def test_its_options_come_from_its_model_under_its_panel(coin: SolverKind) -> None:
    seen: list[SolverOptions] = []
    probe = typer.Typer()

    @probe.command()
    @model_options
    def go(name: str = "x", *, options: SolverOptions) -> None:
        seen.append(options)

    help_text = runner.invoke(probe, ["--help"], terminal_width=200).output
    assert "Coins" in help_text and "--coin-seed" in help_text and "--coin-bias" in help_text
    got = runner.invoke(probe, ["--coin-seed", "7", "--coin-bias", "1"])
    assert got.exit_code == 0, got.output
    assert seen[-1].kinds["coin"] == CoinOptions(coin_seed=7, coin_bias=1.0)
    (solver,) = registry.make_solvers(["coin"], options=seen[-1])
    assert solver.name == "coin#s7"
    bad = runner.invoke(probe, ["--coin-bias", "2"])
    assert bad.exit_code == 2  # the model's bound, enforced on the command line


def test_a_taken_name_is_refused(coin: SolverKind) -> None:
    with pytest.raises(ValueError, match="already registered"):
        registry.register(SolverKind("coin", "coin", _build))
    with pytest.raises(ValueError, match="already registered"):
        registry.register(SolverKind("oracle", "oracle", _build))
