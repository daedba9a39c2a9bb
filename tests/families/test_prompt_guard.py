"""The prompt-leak guard of every model call (``LLMSolver.ask`` with the family's
``answer_key``): for each family, a prompt holding some of the sample's answer key is refused
before the model is called, and a clean one goes out. A family defined outside the package:
tests/families/test_toy_family.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from factories import HIDDEN, sample_dict
from fake_openai import FakeOpenAI, ok
from family_lines import PATCH, REVIEW, SUMMARIZE, SUMMARY, TURN

from truepass.families.base import Family
from truepass.families.patch_correctness.family import PatchCorrectnessFamily
from truepass.families.patch_correctness.schema import PatchCorrectnessSample
from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.family import RepairFamily
from truepass.families.repair.schema import RepairSample
from truepass.families.review.family import ReviewFamily
from truepass.families.review.schema import ReviewSample
from truepass.families.summarize.family import SummarizeFamily
from truepass.families.summarize.schema import SummarizeSample
from truepass.judged import JudgeConfig, SampleCheck
from truepass.models.base import GenerationParams
from truepass.prompts.guard import PromptLeakError
from truepass.solvers import LLMOptions, SolverOptions, make_solvers
from truepass.solvers.base import SolveContext
from truepass.solvers.llm import LLMSolver
from truepass.usage import Usage

CONFIG = JudgeConfig()


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    with FakeOpenAI([ok("Label: correct")] * 10) as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        yield fake


def _solver(tmp_path: Path, shots: int = 0) -> LLMSolver:
    options = SolverOptions(models=LLMOptions(cache_path=tmp_path / "cache.sqlite", shots=(shots,)))
    (solver,) = make_solvers(["openai:fake"], options=options)
    assert isinstance(solver, LLMSolver)
    return solver


def _ask(solver: LLMSolver, family: Family, sample: Any, user: str, **kw: Any) -> None:
    ctx = SolveContext(family, CONFIG, SampleCheck(sample_id=sample.id, valid=True))
    messages = [{"role": "system", "content": "You help."}, {"role": "user", "content": user}]
    solver.ask(messages, GenerationParams(), Usage(), key=0, sample=sample, ctx=ctx, **kw)


# (family, sample, a prompt's text holding a piece of its answer key, what the error names)
CASES = {
    "summarize": (
        SummarizeFamily(),
        SummarizeSample.model_validate(SUMMARIZE),
        "Like this one:\nReturn the sum\n   of two numbers.",  # reflowed: still the reference
        "reference summary",
    ),
    "review": (
        ReviewFamily(),
        ReviewSample.model_validate(REVIEW),
        f"A reviewer said: {TURN}",
        r"its review dialogue \(turn 1, reviewer\)",
    ),
    "patch-correctness": (
        PatchCorrectnessFamily(),
        PatchCorrectnessSample.model_validate(PATCH),
        "Patch by replay:overfit.jsonl",
        "a solver that made it",
    ),
    "repair": (
        RepairFamily(),
        RepairSample.model_validate(sample_dict()),
        f"Output:\n{HIDDEN}",
        "hidden test test_clamp_hidden.py",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_prompt_holding_the_answer_key_is_refused_before_any_model_call(
    name: str, server: FakeOpenAI, tmp_path: Path
) -> None:
    family, sample, leaky, where = CASES[name]
    solver = _solver(tmp_path)
    with pytest.raises(PromptLeakError, match=f"sample '{sample.id}' leaks {where}"):
        _ask(solver, family, sample, leaky)
    assert server.requests == []
    _ask(solver, family, sample, "Please answer.")  # a clean prompt goes out
    assert len(server.requests) == 1


def test_demonstrations_are_checked_but_the_models_own_earlier_answers_are_not(
    server: FakeOpenAI, tmp_path: Path
) -> None:
    family, sample = ReviewFamily(), ReviewSample.model_validate(REVIEW)
    ctx = SolveContext(family, CONFIG, SampleCheck(sample_id=sample.id, valid=True))
    solver = _solver(tmp_path)
    shot = [  # a demonstration whose answer repeats the target's review
        {"role": "user", "content": "Another change."},
        {"role": "assistant", "content": f"Decision: reject\n{TURN}"},
        {"role": "user", "content": "The target."},
    ]
    with pytest.raises(PromptLeakError):
        solver.ask(shot, GenerationParams(), Usage(), key=0, sample=sample, ctx=ctx)
    assert server.requests == []
    # a later round replays the model's own answer: from answers_from on, nothing is checked
    solver.ask(shot, GenerationParams(), Usage(), key=0, sample=sample, ctx=ctx, answers_from=1)
    assert len(server.requests) == 1


def test_a_hidden_test_in_the_buggy_output_stops_a_repair_attempt(
    server: FakeOpenAI, tmp_path: Path
) -> None:
    sample = RepairSample.model_validate(sample_dict())
    family = RepairFamily()
    leaky = RepairCheck(sample_id=sample.id, valid=True, buggy_output=f"FAILED\n{HIDDEN}")
    with pytest.raises(PromptLeakError, match="hidden test"):
        _solver(tmp_path).solve(sample, 0, SolveContext(family, CONFIG, leaky))
    assert server.requests == []
    clean = RepairCheck(sample_id=sample.id, valid=True, buggy_output="FAILED test_high")
    _solver(tmp_path).solve(sample, 0, SolveContext(family, CONFIG, clean))
    assert len(server.requests) == 1


def test_a_summary_demonstration_holding_the_targets_summary_is_dropped(
    server: FakeOpenAI, tmp_path: Path
) -> None:
    target = SummarizeSample.model_validate(SUMMARIZE)
    earlier = {"timestamp": "2020-01-01T00:00:00Z", "function": "plus"}
    holds = SummarizeSample.model_validate(SUMMARIZE | earlier | {
        "id": "alpha/ops.py::plus", "docstring": "Add two numbers.",
        "code": f"def plus(a, b):\n    # {SUMMARY}\n    return a + b\n",
    })  # fmt: skip
    other = SummarizeSample.model_validate(SUMMARIZE | earlier | {
        "id": "alpha/ops.py::minus", "function": "minus", "docstring": "Subtract two numbers.",
        "code": "def minus(a, b):\n    return a - b\n",
    })  # fmt: skip
    family = SummarizeFamily()
    ctx = SolveContext(family, CONFIG, SampleCheck(sample_id=target.id, valid=True),
                       [target, holds, other])  # fmt: skip
    answer = _solver(tmp_path, shots=2).solve(target, 0, ctx)
    assert answer is not None and len(server.requests) == 1
    shown = answer.meta["demonstrations"]
    assert shown["shown"] == ["alpha/ops.py::minus"]  # type: ignore[index]
    assert shown["removed"]["same-summary"] == 1  # type: ignore[index]
