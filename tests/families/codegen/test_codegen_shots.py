"""Code generation with demonstrations: bare or explained, through the leakage guard; and
``truepass explain`` writing the explanations (a fake OpenAI-compatible server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, ok
from typer.testing import CliRunner

from truepass.cli import app
from truepass.errors import InputError
from truepass.families.codegen.explain import read_explanation
from truepass.families.codegen.family import CodegenFamily
from truepass.families.codegen.model import demonstrations
from truepass.families.codegen.schema import CodegenSample

runner = CliRunner()

PROBLEMS = {  # name -> (docstring, body, explanation or None, a visible case)
    "add": ("Return the sum of a and b.", "return a + b", "Adding is one operator.", ("1, 2", "3")),
    "add3": ("Return the sum of a, b and c.", "return a + b + c", None, ("1, 2, 3", "6")),
    "mul": ("Return the product of a and b.", "return a * b", "Multiply with *.", ("2, 3", "6")),
    "plus": ("Return the sum of a and b.", "return a + b", "Same as add.", ("1, 1", "2")),
    "neg": ("Return minus a.", "return -a", "Negate with unary minus.", ("1", "-1")),
}
ARGS = {"add": "a, b", "add3": "a, b, c", "mul": "a, b", "plus": "a, b", "neg": "a"}


def _line(name: str, *, explained: bool = True) -> dict[str, Any]:
    doc, body, explanation, (args, expected) = PROBLEMS[name]
    line: dict[str, Any] = {
        "family": "codegen",
        "id": f"toy/{name}",
        "prompt": f'def {name}({ARGS[name]}):\n    """{doc}"""\n',
        "entry_point": name,
        "canonical_solution": f"    {body}\n",
        "tests": {"visible": [{"args": args, "expected": expected}]},
        "source": "written for truepass's tests",
        "leakage": "private",
    }
    if explained and explanation:
        line["explanation"] = explanation
    return line


def _pool(*, explained: bool = True) -> list[CodegenSample]:
    return [CodegenSample.model_validate(_line(n, explained=explained)) for n in PROBLEMS]


def test_bare_demonstrations_rank_by_the_problem_and_never_show_the_target_or_its_solution() -> (
    None
):
    pool = _pool()
    target = pool[0]  # add
    shown, record = demonstrations(CodegenFamily(), target, 2, "bare", pool)
    ids = [d.id for d in shown]
    assert "toy/add" not in ids
    assert "toy/plus" not in ids  # the same reference solution as the target's
    assert ids[0] == "toy/add3"  # the closest problem text that survives
    assert record["removed"] == {  # type: ignore[comparison-overlap]
        "target": 1, "near-duplicate": 0, "later": 0, "other-project": 0,
        "same-solution": 1, "no-explanation": 0,
    }  # fmt: skip
    assert record["shown"] == ids and len(record["scores"]) == 2  # type: ignore[arg-type]
    assert record["considered"] == 5


def test_explained_demonstrations_skip_problems_without_an_explanation() -> None:
    pool = _pool()
    shown, record = demonstrations(CodegenFamily(), pool[0], 5, "explained", pool)
    assert [d.id for d in shown] == ["toy/mul", "toy/neg"] or {d.id for d in shown} == {
        "toy/mul",
        "toy/neg",
    }
    assert all(d.explanation for d in shown)
    assert record["removed"]["no-explanation"] == 1  # type: ignore[index]


def test_explained_context_without_any_explanation_is_refused_with_what_to_do() -> None:
    pool = _pool(explained=False)
    with pytest.raises(InputError, match="truepass explain"):
        demonstrations(CodegenFamily(), pool[0], 1, "explained", pool)


def _run(tmp_path: Path, suite: Path, server: FakeOpenAI, *extra: str) -> dict[str, Any]:
    out = tmp_path / "run"
    got = runner.invoke(app, [
        "run", "--suite", str(suite), "--solver", "openai:m", "--out", str(out),
        "--check-cache", "off", "--cache", str(tmp_path / "c.sqlite"), *extra,
    ])  # fmt: skip
    assert got.exit_code == 0, got.output
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return {(r["solver"], r["sample_id"]): r for r in map(json.loads, lines)}


def test_a_k_shot_sweep_with_explained_demonstrations_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = tmp_path / "toy.jsonl"
    suite.write_text("".join(json.dumps(_line(n)) + "\n" for n in PROBLEMS), encoding="utf-8")
    answer = "Use the operator.\n```python\ndef add(a, b):\n    return a + b\n```"
    with FakeOpenAI([ok(answer)] * 20) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        results = _run(tmp_path, suite, server, "--shots", "0,1", "--context", "explained")
    assert {s for s, _ in results} == {"openai:m#code-only", "openai:m#code-only-k1-explained"}
    assert results["openai:m#code-only", "toy/add"]["verdict"] == "correct"
    assert results["openai:m#code-only", "toy/mul"]["verdict"] != "correct"
    k1 = results["openai:m#code-only-k1-explained", "toy/add"]
    demos = k1["solver_meta"]["demonstrations"]
    assert demos["k"] == 1 and demos["context"] == "explained" and len(demos["shown"]) == 1
    prompt = k1["solver_meta"]["rounds"][0]["prompt"]
    assert [m["role"] for m in prompt] == ["system", "user", "assistant", "user"]
    demo = next(s for s in _pool() if s.id == demos["shown"][0])
    assert demo.explanation and demo.explanation in prompt[2]["content"]
    assert demo.canonical_solution.strip() in prompt[2]["content"]
    assert "Adding is one operator." not in json.dumps(prompt)  # the target's own explanation
    k0 = results["openai:m#code-only", "toy/add"]["solver_meta"]
    assert k0["demonstrations"] == {"k": 0, "context": "explained"}
    assert len(k0["rounds"][0]["prompt"]) == 2


def test_explain_writes_a_derived_suite_from_the_cache_on_a_second_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = tmp_path / "toy.jsonl"
    names = ["add", "mul", "neg"]
    suite.write_text(
        "".join(json.dumps(_line(n, explained=False)) + "\n" for n in names), encoding="utf-8"
    )
    script = [
        ok("It adds the two numbers.\n```python\nreturn a + b\n```\nNothing else is needed."),
        ok("```python\nreturn a * b\n```"),  # only code: no explanation
        ok("Negation flips the sign."),
    ]
    out = tmp_path / "explained"
    cmd = ["explain", "--suite", str(suite), "--solver", "openai:m", "--out", str(out),
           "--cache", str(tmp_path / "c.sqlite")]  # fmt: skip
    with FakeOpenAI(script) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        got = runner.invoke(app, cmd)
        assert got.exit_code == 0, got.output
        assert len(server.requests) == 3
        first = server.requests[0].body["messages"][1]["content"]
        assert "return a + b" in first  # the solution is shown on purpose
        again = runner.invoke(app, cmd)
        assert again.exit_code == 0, again.output
        assert len(server.requests) == 3  # every answer came from the cache
    assert "2 of 3 problems explained" in got.output and "toy/mul" in got.output
    samples = [json.loads(x) for x in (out / "suite.jsonl").read_text().splitlines()]
    by_id = {s["id"]: s for s in samples}
    assert by_id["toy/add"]["explanation"] == "It adds the two numbers. Nothing else is needed."
    assert by_id["toy/add"]["meta"]["explanation_by"] == "openai:m"
    assert "explanation" not in by_id["toy/mul"]
    report = json.loads((out / "explain.json").read_text())
    assert report["explained"] == 2 and list(report["failed"]) == ["toy/mul"]
    assert report["cached"] == 3  # the second run's report: nothing asked again
    check = runner.invoke(app, ["check-suite", "--suite", str(out), "--check-cache", "off"])
    assert check.exit_code == 0, check.output


def test_explain_refuses_a_suite_of_another_family() -> None:
    got = runner.invoke(app, ["explain", "--suite", "mini", "--solver", "openai:m", "--out", "x"])
    assert got.exit_code == 2
    assert "codegen" in got.output


def test_read_explanation_drops_code_and_caps_the_length() -> None:
    assert read_explanation("Idea.\n```python\nx = 1\n```\nMore.") == "Idea. More."
    long = " ".join(f"Sentence {i} is here." for i in range(100))
    cut = read_explanation(long)
    assert cut.endswith(".") and len(cut.split()) <= 150
