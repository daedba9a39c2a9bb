"""A family added through the registry alone, run end to end: ``run`` (local and Dask),
``check-suite``, ``summary``, ``compare`` and the HTML report, with no edit outside this file;
and with a model solver, behind the prompt-leak guard every model call goes through.

The toy family: a sample is a prompt, the answer is text, and the right answer is the prompt
upper-cased.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar, Literal

import pytest
from cli_run import invoke, results
from fake_openai import FakeOpenAI, ok
from pydantic import BaseModel, ConfigDict
from typer.testing import CliRunner

from truepass.answers import Answer
from truepass.cli import app
from truepass.families import registry
from truepass.families.base import AnswerKey, Family
from truepass.judged import JudgeConfig, Judged, SampleCheck
from truepass.solvers.base import SolveContext
from truepass.solvers.llm import LLMSolver
from truepass.usage import Usage
from truepass.vocabulary import AnswerKind, Verdict

runner = CliRunner()


class UpperSample(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    family: Literal["upper"]
    id: str
    prompt: str
    leakage: Literal["public-old", "public-recent", "private"] = "private"
    category: str = "words"


class UpperFamily(Family):
    name = "upper"
    sample_type = UpperSample
    answer_kinds: ClassVar[frozenset[AnswerKind]] = frozenset({AnswerKind.TEXT})

    def check(self, sample: Any, config: JudgeConfig) -> SampleCheck:
        valid = sample.prompt != sample.prompt.upper()  # else the null answer would pass
        return SampleCheck(sample_id=sample.id, valid=valid, reason="" if valid else "no letters")

    def judge(
        self, sample: Any, answer: Answer | None, check: SampleCheck, config: JudgeConfig
    ) -> Judged:
        if not check.valid:
            return Judged(verdict=Verdict.INVALID_SAMPLE, details=check.reason)
        if answer is None or answer.text is None:
            return Judged(verdict=Verdict.NO_PATCH)
        right = answer.text == sample.prompt.upper()
        return Judged(
            verdict=Verdict.CORRECT if right else Verdict.FAILS_VISIBLE,
            patch=answer.text,
            scores={"exact": float(right)},
        )

    def reference_answer(self, sample: Any) -> Answer:
        return Answer(text=sample.prompt.upper(), patch_id="reference")

    def null_answer(self, sample: Any) -> Answer | None:
        return Answer(text=sample.prompt, patch_id="noop")

    def metrics(self, records: list[Any]) -> dict[str, float]:
        scored = [r.scores["exact"] for r in records if "exact" in r.scores]
        return {"exact_match": sum(scored) / len(scored)} if scored else {}


@pytest.fixture
def upper() -> Iterator[type[Family]]:
    registry.register(UpperFamily)
    yield UpperFamily
    registry.unregister(UpperFamily.name)


def _suite(path: Path) -> Path:
    lines = [
        {"family": "upper", "id": "a", "prompt": "hello"},
        {"family": "upper", "id": "b", "prompt": "Mixed Case"},
        {"family": "upper", "id": "c", "prompt": "ALREADY"},  # invalid: nothing to upper-case
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def _patches(path: Path) -> Path:
    lines = [
        {"sample_id": "a", "text": "HELLO"},
        {"sample_id": "b", "text": "MIXED case"},
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "executor", ["local", pytest.param("dask-local:2", marks=pytest.mark.slow)]
)
def test_a_family_from_the_registry_runs_end_to_end(
    upper: type[Family], tmp_path: Path, executor: str
) -> None:
    suite = _suite(tmp_path / "upper.jsonl")
    run_a, run_b = tmp_path / "a", tmp_path / "b"
    common = ["--suite", str(suite), "--executor", executor, "--check-cache", "off"]
    invoke("run", *common, "--solver", "oracle", "--solver", "noop", "--out", str(run_a))
    replay = f"replay:{_patches(tmp_path / 'answers.jsonl')}"
    invoke("run", *common, "--solver", replay, "--out", str(run_b))

    got = results(run_a)
    assert got["oracle", "a"]["verdict"] == "correct"
    assert got["oracle", "b"]["scores"] == {"exact": 1.0}
    assert got["noop", "a"]["verdict"] == "fails-visible"
    assert got["oracle", "c"]["verdict"] == "invalid-sample"
    assert got["oracle", "a"]["defect_type"] == "words"
    replayed = results(run_b)
    assert replayed[replay, "a"]["verdict"] == "correct"
    assert replayed[replay, "b"]["verdict"] == "fails-visible"

    summary = json.loads((run_a / "summary.json").read_text(encoding="utf-8"))
    assert summary["family"] == "upper"
    by_solver = {s["solver"]: s for s in summary["solvers"]}
    assert by_solver["oracle"]["metrics"] == {"exact_match": 1.0}
    assert by_solver["noop"]["metrics"] == {"exact_match": 0.0}
    assert by_solver["oracle"]["overall"]["correct_rate"] == 1.0
    assert json.loads((run_a / "manifest.json").read_text())["suite"]["family"] == "upper"

    assert "oracle" in invoke("summary", str(run_a))
    compared = invoke("compare", str(run_a), str(run_b))
    assert "oracle" in compared and replay in compared
    report = tmp_path / "report.html"
    invoke("report", str(run_a), str(run_b), "--out", str(report))
    html = report.read_text(encoding="utf-8")
    assert "MIXED case" in html and "exact_match" in html

    health = runner.invoke(app, ["check-suite", *common, "--out", str(tmp_path / "health")])
    assert health.exit_code == 1, health.output  # sample c is invalid
    assert "3 samples, 2 valid" in health.output
    data = json.loads((tmp_path / "health" / "health.json").read_text(encoding="utf-8"))
    statuses = {s["sample_id"]: (s["status"], s["reference"], s["noop"]) for s in data["samples"]}
    assert statuses == {
        "a": ("ok", "correct", "fails-visible"),
        "b": ("ok", "correct", "fails-visible"),
        "c": ("invalid", "-", None),
    }


def test_solvers_refuse_a_family_they_do_not_serve(upper: type[Family], tmp_path: Path) -> None:
    suite = _suite(tmp_path / "upper.jsonl")
    got = runner.invoke(
        app, ["run", "--suite", str(suite), "--solver", "baseline:templates", "--out", "x"]
    )
    assert got.exit_code == 2
    assert "cannot work on upper samples (only repair)" in got.output


def test_an_unknown_family_is_an_input_error(tmp_path: Path) -> None:
    suite = tmp_path / "s.jsonl"
    suite.write_text(json.dumps({"family": "nope", "id": "x"}) + "\n", encoding="utf-8")
    got = runner.invoke(app, ["run", "--suite", str(suite), "--solver", "oracle", "--out", "x"])
    assert got.exit_code == 2
    assert (
        f"{suite}:1: field 'family': unknown family 'nope' "
        "(known: codegen, memorisation, patch-correctness, rebuild, repair, review, summarize)"
        in (" ".join(got.output.split()))
    )
    with pytest.raises(Exception, match="unknown task family 'nope'"):
        registry.get("nope")


# -- a model solver behind the leak guard ---------------------------------------------------------


class ShoutSample(UpperSample):
    family: Literal["shout"]  # type: ignore[assignment]


class ShoutFamily(UpperFamily):
    """The toy family with model solvers. Its answer key is the upper-cased prompt; a careless
    prompt builder shows it as a hint when the prompt ends in ``!``."""

    name = "shout"
    sample_type = ShoutSample
    prompt_variants = ("code-only",)

    def answer_key(self, sample: Any) -> AnswerKey:
        return AnswerKey.distinctive([(sample.prompt.upper(), "the answer")], min_chars=3)

    def ask_model(self, solver: LLMSolver, sample: Any, attempt: int, ctx: SolveContext) -> Answer:
        hint = sample.prompt.upper() if sample.prompt.endswith("!") else "loud"
        messages = [{"role": "user", "content": f"Upper-case {sample.prompt!r} (hint: {hint})."}]
        completion = solver.ask(
            messages, solver.params(attempt), Usage(), key=attempt, sample=sample, ctx=ctx
        )
        return Answer(text=completion.text)


@pytest.fixture
def shout() -> Iterator[type[Family]]:
    registry.register(ShoutFamily)
    yield ShoutFamily
    registry.unregister(ShoutFamily.name)


def test_the_leak_guard_holds_for_a_family_defined_outside_the_package(
    shout: type[Family], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def run(prompt: str, out: str) -> Any:
        suite = tmp_path / f"{out}.jsonl"
        line = {"family": "shout", "id": "a", "prompt": prompt}
        suite.write_text(json.dumps(line) + "\n", encoding="utf-8")
        return runner.invoke(app, ["run", "--suite", str(suite), "--solver", "openai:fake",
                                   "--out", str(tmp_path / out), "--check-cache", "off",
                                   "--cache", str(tmp_path / "cache.sqlite")])  # fmt: skip

    with FakeOpenAI([ok("HELLO")]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        got = run("hello", "clean")
        assert got.exit_code == 0, got.output
        assert len(server.requests) == 1
        assert results(tmp_path / "clean")["openai:fake#code-only", "a"]["verdict"] == "correct"
        got = run("hello!", "leaky")
        assert got.exit_code == 1, got.output
        said = " ".join(got.output.split())
        assert "the prompt for sample 'a' leaks the answer: 'HELLO!'" in said
        assert len(server.requests) == 1  # the leaky prompt never reached the model
