"""Reference solvers, for every family: ``oracle`` submits the suite's own answer (the reference
fix, the canonical solution), ``noop`` the family's null answer (the unchanged code)."""

from __future__ import annotations

from typing import Any

from truepass.answers import Answer
from truepass.solvers.base import SolveContext, Solver, SolverBase
from truepass.solvers.registry import SolverKind, SolverOptions


class OracleSolver(SolverBase):
    """Submits the reference answer: the upper bound, and a check of the suite itself."""

    name = "oracle"

    def solve(self, sample: Any, attempt: int, ctx: SolveContext) -> Answer | None:
        return ctx.family.reference_answer(sample)


class NoopSolver(SolverBase):
    """Submits the null answer (changes nothing): any solver must beat it, and it never passes.
    A family without a null answer gets None (judged ``no-patch``)."""

    name = "noop"

    def solve(self, sample: Any, attempt: int, ctx: SolveContext) -> Answer | None:
        return ctx.family.null_answer(sample)


def _oracle(spec: str, options: SolverOptions, known_ids: set[str] | None) -> list[Solver]:
    return [OracleSolver()]


def _noop(spec: str, options: SolverOptions, known_ids: set[str] | None) -> list[Solver]:
    return [NoopSolver()]


ORDER = 10
KINDS = (
    SolverKind("oracle", "oracle", _oracle, accepts=lambda spec: spec == "oracle"),
    SolverKind("noop", "noop", _noop, accepts=lambda spec: spec == "noop"),
)
