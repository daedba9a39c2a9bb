"""truepass harden through the real sandbox pool: a few HumanEval problems end to end, and the
command line on a tiny suite."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from truepass.answers import Answer
from truepass.cli import app
from truepass.families.codegen.harden import HardenConfig, HardenReport, harden_suite
from truepass.families.codegen.judge import check_codegen, judge_codegen
from truepass.families.codegen.schema import CodegenSample
from truepass.sandbox.guest.plainvalues import plain_equal
from truepass.sandbox.pool import ExecPool
from truepass.suites.literals import parse_literal
from truepass.suites.loader import Suite, load_suite, write_suite_dir
from truepass.vocabulary import Verdict

PROBLEMS = ("HumanEval-2", "HumanEval-4", "HumanEval-31", "HumanEval-35")
# passes HumanEval's own tests of is_prime (they never ask about 2), but 2 is prime
WRONG_IS_PRIME = (
    "def is_prime(n):\n    if n < 3:\n        return False\n"
    "    for k in range(2, n):\n        if n % k == 0:\n            return False\n    return True\n"
)


@pytest.fixture(scope="module")
def pool() -> ExecPool:  # type: ignore[misc]
    with ExecPool(workers=2) as p:
        yield p


@pytest.fixture(scope="module")
def original() -> Suite:
    suite = load_suite("humaneval")
    return dataclasses.replace(suite, samples=[suite.sample(i) for i in PROBLEMS])


@pytest.fixture(scope="module")
def hardened(original: Suite, pool: ExecPool) -> tuple[Suite, HardenReport]:
    return harden_suite(original, HardenConfig(per_problem=100, seed=0), pool=pool)


def judge(sample: CodegenSample, code: str, pool: ExecPool) -> Verdict:
    check = check_codegen(sample, pool)
    assert check.valid, check.reason
    return judge_codegen(sample, Answer(files={"solution.py": code}), check, pool).verdict


@pytest.mark.slow
def test_hidden_cases_are_added_and_reported(
    original: Suite, hardened: tuple[Suite, HardenReport]
) -> None:
    suite, report = hardened
    assert [s.id for s in suite.samples] == list(PROBLEMS)
    added = 0
    for before, after, problem in zip(
        original.samples, suite.samples, report.problems, strict=True
    ):
        assert isinstance(before, CodegenSample) and isinstance(after, CodegenSample)
        assert problem.status == "hardened"
        assert after.model_dump(exclude={"tests"}) == before.model_dump(exclude={"tests"})
        assert after.tests.visible == before.tests.visible
        assert after.tests.hidden[: len(before.tests.hidden)] == before.tests.hidden
        new = after.tests.hidden[len(before.tests.hidden) :]
        assert len(new) == problem.added_after <= problem.added_before == problem.kept
        assert problem.kept + sum(problem.dropped.values()) == problem.generated
        assert problem.killed_visible <= problem.killed_hardened <= problem.mutants
        assert all(c.expected is not None for c in new)
        added += len(new)
    assert added >= 2
    assert report.totals()["added_after"] == added


@pytest.mark.slow
def test_expected_values_are_the_canonical_outputs(
    hardened: tuple[Suite, HardenReport], pool: ExecPool
) -> None:
    suite, _ = hardened
    for sample in suite.samples:
        assert isinstance(sample, CodegenSample)
        cases = sample.tests.hidden
        if not cases:
            continue
        run = pool.execute(sample.reference_code, sample.entry_point,
                           [c.arguments() for c in cases], timeout_s=10.0)  # fmt: skip
        assert [o.kind for o in run.outcomes] == ["value"] * len(cases)
        for case, outcome in zip(cases, run.outcomes, strict=True):
            assert case.expected is not None
            assert plain_equal(parse_literal(case.expected), outcome.value), case


@pytest.mark.slow
def test_oracle_passes_and_a_wrong_solution_is_caught(
    original: Suite, hardened: tuple[Suite, HardenReport], pool: ExecPool
) -> None:
    suite, _ = hardened
    for sample in suite.samples:
        assert isinstance(sample, CodegenSample)
        expected = Verdict.CORRECT
        assert judge(sample, sample.reference_code, pool) == expected
    before, after = original.sample("HumanEval-31"), suite.sample("HumanEval-31")
    assert isinstance(before, CodegenSample) and isinstance(after, CodegenSample)
    assert judge(before, WRONG_IS_PRIME, pool) == Verdict.CORRECT  # fools the visible tests
    assert judge(after, WRONG_IS_PRIME, pool) == Verdict.OVERFIT  # not the hardened ones


@pytest.mark.slow
def test_same_seed_same_suite(
    original: Suite, hardened: tuple[Suite, HardenReport], pool: ExecPool, tmp_path: Path
) -> None:
    again, _ = harden_suite(original, HardenConfig(per_problem=100, seed=0), pool=pool)
    first = write_suite_dir(hardened[0], tmp_path / "a") / "suite.jsonl"
    second = write_suite_dir(again, tmp_path / "b") / "suite.jsonl"
    assert first.read_text() == second.read_text()


TINY = {
    "family": "codegen",
    "id": "clamp",
    "prompt": 'def clamp(x: int, low: int, high: int) -> int:\n    """x within [low, high]."""\n',
    "entry_point": "clamp",
    "canonical_solution": (
        "    if x < low:\n        return low\n    if x > high:\n        return high\n    return x\n"
    ),
    "tests": {"visible": [{"args": "5, 0, 10"}, {"args": "-1, 0, 10"}, {"args": "3, 2, 4"}]},
    "source": "written for truepass tests",
    "leakage": "private",
}


def test_cli_writes_a_suite_directory_and_reports_the_drop(tmp_path: Path) -> None:
    src = tmp_path / "tiny.jsonl"
    src.write_text(json.dumps(TINY) + "\n")
    out = tmp_path / "hard"
    result = CliRunner().invoke(
        app, ["harden", "--suite", str(src), "--out", str(out), "--per-problem", "40"]
    )
    assert result.exit_code == 0, result.output
    assert "1/1 problems hardened" in result.output
    suite = load_suite(out)
    assert suite.name == "tiny-hard" and suite.family == "codegen"
    sample = suite.samples[0]
    assert isinstance(sample, CodegenSample) and sample.tests.hidden  # x > high is never visible
    data = json.loads((out / "harden.json").read_text())
    assert data["problems"][0]["added_after"] == len(sample.tests.hidden)
    assert data["totals"]["added_after"] == len(sample.tests.hidden)
    run = tmp_path / "run"
    run.mkdir()
    verdicts = [("a", "m", "correct"), ("b", "m", "overfit"), ("c", "m", "plausible"),
                ("d", "m", "fails-visible"), ("a", "o", "correct")]  # fmt: skip
    lines = [
        json.dumps({"suite": "tiny-hard", "sample_id": s, "defect_type": "codegen",
                    "leakage": "private", "solver": solver, "attempt": 0, "verdict": v})
        for s, solver, v in verdicts
    ]  # fmt: skip
    (run / "results.jsonl").write_text("\n".join(lines) + "\n")
    shown = CliRunner().invoke(app, ["harden", "--report", str(run)])
    assert shown.exit_code == 0, shown.output
    assert "75.0%" in shown.output and "50.0%" in shown.output and "25.0 pts" in shown.output
    assert "m lost on: b" in shown.output
    missing = CliRunner().invoke(app, ["harden", "--suite", str(src)])
    assert missing.exit_code == 2
