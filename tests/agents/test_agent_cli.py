"""``truepass run --solver agent:MODEL`` from the command line: the options reach the solver,
families without agent tasks are refused before anything runs; and the embedded model as an
agent, end to end (slow)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_helpers import FIXING_SCRIPT, suite_of
from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from truepass.agentic.trajectory import EndReason, Trajectory
from truepass.cli import app

runner = CliRunner()


def _records(out: Path) -> list[dict[str, object]]:
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_run_with_an_agent_solver_and_its_options(tmp_path: Path, server: FakeOpenAI) -> None:
    server.script = list(FIXING_SCRIPT)
    suite = suite_of(tmp_path).path
    out = tmp_path / "run"
    got = runner.invoke(app, [
        "run", "--suite", str(suite), "--solver", "agent:openai:fake", "--out", str(out),
        "--agent-steps", "6", "--agent-tokens", "5000", "--agent-time", "300",
        "--cache", str(tmp_path / "cache.sqlite"), "--timeout", "30", "--reruns", "0",
    ])  # fmt: skip
    assert got.exit_code == 0, got.output
    (rec,) = _records(out)
    assert rec["solver"] == "agent:openai:fake#text-s6-t300-tok5000"
    assert rec["verdict"] == "correct"
    t = Trajectory.model_validate(rec["solver_meta"]["agent"])  # type: ignore[index]
    assert (t.limits.steps, t.limits.time_s, t.limits.tokens) == (6, 300.0, 5000)
    assert (
        "agent:openai:fake#text-s6-t300-tok5000"
        in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["solvers"]
    )
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["solvers"][0]["process"]["steps"] == 4.0
    shown = runner.invoke(app, ["summary", str(out)])
    assert shown.exit_code == 0, shown.output
    assert "agent process" in shown.output and "submitted 100%" in shown.output


def test_a_family_without_agent_tasks_is_refused_before_the_run(tmp_path: Path) -> None:
    got = runner.invoke(app, ["run", "--suite", "review-mini", "--solver", "agent:openai:fake",
                              "--out", str(tmp_path / "x")])  # fmt: skip
    assert got.exit_code == 2, got.output
    said = " ".join(got.output.split())
    assert "review samples take no agents (the family gives no agent task)" in said
    assert not (tmp_path / "x" / "results.jsonl").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--solver", "agent:gpt"], "expected agent:MODEL"),
        (["--solver", "agent:local:smollm2", "--agent-protocol", "tools"], "needs an openai:"),
        (["--solver", "agent:openai:fake", "--agent-cost", "1"], "needs the price of"),
        (["--solver", "agent:openai:fake", "--agent-protocol", "xml"], "xml"),
    ],
)
def test_bad_agent_options_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    got = runner.invoke(app, ["run", "--suite", "mini", *args, "--out", str(tmp_path / "x")])
    assert got.exit_code == 2, got.output
    assert message in " ".join(got.output.split())


@pytest.mark.slow
def test_the_embedded_model_as_an_agent_end_to_end(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is installed by `make test`")
    out = tmp_path / "run"
    got = runner.invoke(app, [
        "run", "--suite", "mini", "--limit", "2", "--solver", "agent:local:smollm2",
        "--out", str(out), "--agent-steps", "4", "--max-tokens", "256",
        "--cache", str(tmp_path / "cache.sqlite"), "--timeout", "30", "--reruns", "0",
    ])  # fmt: skip
    assert got.exit_code == 0, got.output
    records = _records(out)
    assert len(records) == 2
    for rec in records:
        assert rec["solver"] == "agent:local:smollm2#text-s4"
        meta = rec["solver_meta"]
        assert isinstance(meta, dict)
        t = Trajectory.model_validate(meta["agent"])
        assert t.end_reason in set(EndReason) and 1 <= len(t.steps) <= 4
        assert rec["verdict"] not in ("infra-error", "invalid-sample")
