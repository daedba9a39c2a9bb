"""The benchmark's scoring formulas, checked against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from truepass.families.rebuild.scoring import (
    Attempt,
    difficulty,
    difficulty_bucket,
    languages,
    same_language,
    scores,
    structure,
    task_rates,
)
from truepass.metrics.tree import Submission


def sub(language: str = "C", files: int = 1, functions: int = 2) -> Submission:
    return Submission(
        language=language, files=files, depth=0, functions=functions, mean_function_length=5.0
    )


def test_difficulty_is_the_benchmarks_formula() -> None:
    # log10(1000) + log10(1 + 0) - 2 = 1
    assert difficulty(1000, 0) == pytest.approx(1.0)
    # log10(100000) + log10(1 + 9) - 2 = 4
    assert difficulty(100_000, 9) == pytest.approx(4.0)
    assert difficulty(50, 0) == 0.0  # clamped below
    assert difficulty(10**13, 10**3) == 10.0  # clamped above
    assert difficulty(20_000, 3) == pytest.approx(math.log10(20_000) + math.log10(4) - 2)
    assert [difficulty_bucket(v) for v in (0.0, 1.99, 2.0, 3.99, 4.0)] == [
        "easy", "easy", "medium", "medium", "hard",
    ]  # fmt: skip


def test_resolved_and_almost_are_means_over_tasks() -> None:
    attempts = [
        # task a: 2 attempts, one resolved -> 0.5; almost: 1.0 and 0.96 -> 1.0
        Attempt(task="a", pass_rate=1.0, resolved=True),
        Attempt(task="a", pass_rate=0.96, resolved=False),
        # task b: one attempt at 0.5 -> 0 and 0
        Attempt(task="b", pass_rate=0.5, resolved=False),
        # task c: an infra error counts as a failure, not dropped
        Attempt(task="c", pass_rate=1.0, resolved=True, infra=True),
    ]
    assert task_rates(attempts, "resolved") == [0.5, 0.0, 0.0]
    assert task_rates(attempts, "almost") == [1.0, 0.0, 0.0]
    assert task_rates(attempts, "pass_rate") == [pytest.approx(0.98), 0.5, 0.0]
    out = scores(attempts)
    assert out["tasks"] == 3
    assert out["resolved"] == pytest.approx(0.5 / 3, abs=1e-4)
    assert out["almost"] == pytest.approx(1 / 3, abs=1e-4)
    assert out["pass_rate"] == pytest.approx(1.48 / 3, abs=1e-4)
    assert out["infra_errors"] == 1


def test_a_task_with_many_attempts_weighs_as_one() -> None:
    many = [Attempt(task="a", pass_rate=1.0, resolved=True) for _ in range(9)]
    one = [Attempt(task="b", pass_rate=0.0, resolved=False)]
    assert scores(many + one)["resolved"] == 0.5  # per attempt it would be 0.9


def test_structure_takes_solutions_passing_three_quarters() -> None:
    attempts = [
        Attempt(task="a", pass_rate=0.75, resolved=False, submission=sub(files=4),
                original={"files": 10.0}),
        Attempt(task="b", pass_rate=1.0, resolved=True, submission=sub(files=2),
                original={"files": 20.0}),
        Attempt(task="c", pass_rate=0.74, resolved=False, submission=sub(files=100),
                original={"files": 1000.0}),
    ]  # fmt: skip
    out = structure(attempts)
    assert out["structure_n"] == 2
    assert out["submission_files"] == 3.0
    assert out["original_files"] == 15.0


def test_language_shares_and_same_language_rate() -> None:
    attempts = [
        Attempt(task="a", pass_rate=0.1, resolved=False, submission=sub("Rust"),
                gold_language="rust"),
        Attempt(task="b", pass_rate=0.1, resolved=False, submission=sub("Python"),
                gold_language="c"),
        Attempt(task="c", pass_rate=0.1, resolved=False, submission=sub("C++"),
                gold_language="c++"),
        Attempt(task="d", pass_rate=0.0, resolved=False, submission=None, gold_language="go"),
    ]  # fmt: skip
    out = languages(attempts)
    assert out["language_Rust"] == out["language_Python"] == out["language_C++"] == 0.3333
    assert out["same_language"] == 0.6667
    assert same_language("Go", "go") and not same_language("C++", "c")
