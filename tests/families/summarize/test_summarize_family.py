"""The summarisation family end to end: oracle and a model (a fake OpenAI-compatible server)
swept over k = 0, 1, 2, demonstrations through the leakage guard, metrics in the summary, and
check-suite."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, ok
from typer.testing import CliRunner

from truepass.cli import app

runner = CliRunner()

FUNCS = [  # (project, name, timestamp, summary)
    ("alpha", "add", "2020-01-01T00:00:00Z", "Return the sum of two numbers."),
    ("alpha", "sub", "2021-01-01T00:00:00Z", "Return the difference of two numbers."),
    ("alpha", "mul", "2022-01-01T00:00:00Z", "Return the product of two numbers."),
    ("alpha", "div", "2023-01-01T00:00:00Z", "Return the quotient of two numbers."),
    ("beta", "add_all", "2019-01-01T00:00:00Z", "Add every number of a list."),
    ("beta", "neg", "2018-01-01T00:00:00Z", "Negate a number."),
]
OPS = {"add": "a + b", "sub": "a - b", "mul": "a * b", "div": "a / b"}


def _line(project: str, name: str, when: str, summary: str) -> dict[str, Any]:
    if name in OPS:
        code = f"def {name}(a, b):\n    return {OPS[name]}\n"
    else:
        code = (
            f"def {name}(xs):\n    return sum(xs)\n"
            if name == "add_all"
            else (f"def {name}(x):\n    return -x\n")
        )
    return {
        "family": "summarize",
        "id": f"{project}/ops.py::{name}",
        "project": project,
        "path": "ops.py",
        "class_name": None,
        "function": name,
        "code": code,
        "docstring": summary,
        "timestamp": when,
        "source": "written for truepass's tests",
        "leakage": "private",
    }


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    path = tmp_path / "summaries.jsonl"
    path.write_text("".join(json.dumps(_line(*f)) + "\n" for f in FUNCS), encoding="utf-8")
    return path


def _results(run: Path) -> dict[tuple[str, str], dict[str, Any]]:
    lines = (run / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return {(r["solver"], r["sample_id"]): r for r in map(json.loads, lines)}


def test_oracle_scores_exact_and_check_suite_passes(suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    got = runner.invoke(app, ["run", "--suite", str(suite), "--solver", "oracle", "--out", str(out),
                              "--check-cache", "off"])  # fmt: skip
    assert got.exit_code == 0, got.output
    results = _results(out)
    assert {r["verdict"] for r in results.values()} == {"scored"}
    assert all(r["scores"]["exact"] == 1.0 for r in results.values())
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    metrics = summary["solvers"][0]["metrics"]
    assert summary["family"] == "summarize"
    assert metrics["exact"] == 1.0 and metrics["rougeL"] == 1.0 and metrics["bleu"] > 99
    health = runner.invoke(app, ["check-suite", "--suite", str(suite), "--check-cache", "off"])
    assert health.exit_code == 0, health.output
    assert "6 samples, 6 valid, 0 with problems" in health.output


def test_a_model_swept_over_k_sees_only_earlier_same_project_demonstrations(
    suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    answer = "Return the sum of two numbers."
    with FakeOpenAI([ok(answer)] * 40) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        got = runner.invoke(app, [
            "run", "--suite", str(suite), "--solver", "openai:m", "--shots", "0,1,2",
            "--out", str(out), "--check-cache", "off", "--cache", str(tmp_path / "c.sqlite"),
        ])  # fmt: skip
        assert got.exit_code == 0, got.output
    results = _results(out)
    solvers = {s for s, _ in results}
    assert solvers == {"openai:m#code-only", "openai:m#code-only-k1", "openai:m#code-only-k2"}
    add = results["openai:m#code-only", "alpha/ops.py::add"]
    assert add["verdict"] == "scored" and add["scores"]["exact"] == 1.0
    sub = results["openai:m#code-only", "alpha/ops.py::sub"]
    assert 0 < sub["scores"]["rougeL"] < 1 and sub["scores"]["exact"] == 0.0

    div = results["openai:m#code-only-k2", "alpha/ops.py::div"]["solver_meta"]["demonstrations"]
    assert div["k"] == 2 and div["context"] == "project"
    assert len(div["shown"]) == 2
    assert set(div["shown"]) <= {"alpha/ops.py::add", "alpha/ops.py::sub", "alpha/ops.py::mul"}
    assert div["removed"]["other-project"] == 2 and div["removed"]["target"] == 1
    first = results["openai:m#code-only-k2", "alpha/ops.py::add"]["solver_meta"]
    assert first["demonstrations"]["shown"] == []  # the oldest of its project: nothing earlier
    assert first["demonstrations"]["removed"]["later"] == 3
    prompt = results["openai:m#code-only-k2", "alpha/ops.py::div"]["solver_meta"]["rounds"][0]
    roles = [m["role"] for m in prompt["prompt"]]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]
    assert "Return the quotient" not in json.dumps(prompt["prompt"])  # the target's reference

    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    by_solver = {s["solver"]: s for s in summary["solvers"]}
    for name in solvers:
        m = by_solver[name]["metrics"]
        assert {"bleu", "rouge1", "rouge2", "rougeL", "meteor", "exact"} <= set(m)
        assert m["bleu_ci_low"] <= m["bleu"] <= m["bleu_ci_high"]
    compared = runner.invoke(app, ["compare", str(out), "--json", str(tmp_path / "c.json")])
    assert compared.exit_code == 0, compared.output
    assert "metric scores, paired" in compared.output
    pairs = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))["pairs"]
    assert len(pairs) == 3  # k0 vs k1, k0 vs k2, k1 vs k2
    bleu = pairs[0]["overall"]["scores"]["bleu"]
    assert bleu["difference"] == pytest.approx(bleu["mean_a"] - bleu["mean_b"])
    assert pairs[0]["overall"]["n"] == 6


def test_shots_are_refused_where_no_demonstrations_apply(tmp_path: Path) -> None:
    got = runner.invoke(app, ["run", "--suite", "mini", "--solver", "openai:m", "--shots", "1",
                              "--out", str(tmp_path / "x")])  # fmt: skip
    assert got.exit_code == 2
    assert "repair samples take no demonstrations" in got.output


@pytest.mark.slow
def test_smollm2_on_a_suite_built_from_an_installed_package(tmp_path: Path) -> None:
    suite = tmp_path / "typer-summaries"
    got = runner.invoke(app, ["build-suite", "summarize", "--from-package", "typer", "--limit",
                              "6", "--out", str(suite)])  # fmt: skip
    assert got.exit_code == 0, got.output
    out = tmp_path / "run"
    got = runner.invoke(app, [
        "run", "--suite", str(suite), "--solver", "local:smollm2", "--shots", "0,1",
        "--max-tokens", "48", "--out", str(out), "--check-cache", "off",
        "--cache", str(tmp_path / "c.sqlite"),
    ])  # fmt: skip
    assert got.exit_code == 0, got.output
    results = _results(out)
    assert len(results) == 12
    assert {r["verdict"] for r in results.values()} <= {"scored", "no-patch"}
    shown = [
        r["solver_meta"]["demonstrations"]["shown"]
        for (solver, _), r in results.items()
        if solver.endswith("-k1")
    ]
    assert any(shown)  # some sample had an earlier one of its project (typer has no dates)


def test_the_report_shows_the_metrics_with_their_intervals(suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    got = runner.invoke(app, ["run", "--suite", str(suite), "--solver", "oracle", "--out", str(out),
                              "--check-cache", "off"])  # fmt: skip
    assert got.exit_code == 0, got.output
    html = (out / "report.html").read_text(encoding="utf-8")
    row = r'<tr data-family-metric="rougeL"><td>rougeL</td><td class="num">'
    row += r"1\.000 \[1\.000–1\.000\]</td>"
    assert re.search(row, html)
    assert "rougeL_ci_low" not in html
