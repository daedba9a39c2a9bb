"""``baseline:templates`` run for real: SBFL and candidate validation in the sandbox."""

from __future__ import annotations

import pytest
from template_samples import NONE_CHECK, OFF_BY_ONE, UNFIXABLE, WRONG_COMPARISON

from truepass.errors import SandboxError
from truepass.families.repair.family import RepairFamily
from truepass.families.repair.judge import check_sample, judge
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.solvers.templates import TemplateSolver
from truepass.judged import JudgeConfig
from truepass.sandbox import Limits, run_sandboxed
from truepass.solvers import make_solver
from truepass.solvers.base import SolveContext
from truepass.vocabulary import Verdict

CONFIG = JudgeConfig(limits=Limits(timeout_s=30.0), reruns=0)


def _sandbox_works() -> bool:
    try:
        return run_sandboxed(["true"], {}, limits=Limits(timeout_s=10.0)).returncode == 0
    except (SandboxError, OSError):
        return False


pytestmark = pytest.mark.skipif(not _sandbox_works(), reason="no working sandbox here")


def _solve(solver: TemplateSolver, sample: RepairSample):  # type: ignore[no-untyped-def]
    check = check_sample(sample, CONFIG)
    assert check.valid, check.reason
    answer = solver.solve(sample, 0, SolveContext(RepairFamily(), CONFIG, check))
    return answer, check


def test_registry_names() -> None:
    assert make_solver("baseline:templates").name == "baseline:templates"
    fault = make_solver("baseline:templates+fault")
    assert fault.name == "baseline:templates+fault" and fault.attempts(OFF_BY_ONE) == 1


@pytest.mark.parametrize(
    ("sample", "operator", "line"),
    [
        (OFF_BY_ONE, "off-by-one", 4),
        (WRONG_COMPARISON, "compare", 2),
        (NONE_CHECK, "none-guard", 2),
    ],
)
def test_sbfl_finds_a_patch_passing_the_visible_tests(
    sample: RepairSample, operator: str, line: int
) -> None:
    answer, check = _solve(TemplateSolver(), sample)
    assert answer is not None and answer.diff
    assert answer.meta["fault_source"] == "sbfl"
    assert (answer.meta["operator"], answer.meta["line"]) == (operator, line)
    assert 1 <= int(answer.meta["candidates_tried"]) <= 200  # type: ignore[call-overload]
    verdict = judge(sample, answer, check, CONFIG)
    assert verdict.visible is not None and verdict.visible.ok
    assert verdict.verdict == (Verdict.CORRECT if sample.tests.hidden else Verdict.PLAUSIBLE)


def test_given_fault_goes_straight_to_the_line_and_says_so() -> None:
    answer, _ = _solve(TemplateSolver(given_fault=True), WRONG_COMPARISON)
    assert answer is not None
    meta = answer.meta
    assert meta["fault_source"] == "given" and meta["in_given_fault"] is True
    assert meta["candidates_tried"] == 1 and "+    if score >= 90:" in (answer.diff or "")


def test_returns_none_when_nothing_passes() -> None:
    answer, _ = _solve(TemplateSolver(), UNFIXABLE)
    assert answer is None


def test_never_reads_hidden_tests_fix_or_known_overfit() -> None:
    check = check_sample(NONE_CHECK, CONFIG)
    blind = NONE_CHECK.model_copy(
        update={
            "fix": "not a diff",
            "known_overfit": "not a diff either",
            "tests": NONE_CHECK.tests.model_copy(update={"hidden": {"test_h.py": "assert 0\n"}}),
        }
    )
    ctx = SolveContext(RepairFamily(), CONFIG, check)
    a, b = TemplateSolver().solve(NONE_CHECK, 0, ctx), TemplateSolver().solve(blind, 0, ctx)
    assert a is not None and b is not None and a.diff == b.diff


def test_invalid_sample_is_not_searched() -> None:
    check = check_sample(NONE_CHECK, CONFIG).model_copy(update={"valid": False})
    assert (
        TemplateSolver().solve(NONE_CHECK, 0, SolveContext(RepairFamily(), CONFIG, check)) is None
    )
