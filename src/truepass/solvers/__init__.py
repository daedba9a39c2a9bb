"""Solvers by spec: ``oracle``, ``noop``, ``replay:FILE``, ``baseline:templates[+fault]``."""

from __future__ import annotations

from pathlib import Path

from truepass.errors import InputError
from truepass.solvers.base import SolveContext, Solver
from truepass.solvers.replay import ReplaySolver
from truepass.solvers.simple import NoopSolver, OracleSolver

__all__ = ["SolveContext", "Solver", "make_solver"]

SOLVER_HELP = "oracle | noop | replay:FILE | baseline:templates | baseline:templates+fault"


def make_solver(spec: str, known_ids: set[str] | None = None) -> Solver:
    """Build the solver named by ``spec`` (raises :class:`InputError` for an unknown one)."""
    if spec == "oracle":
        return OracleSolver()
    if spec == "noop":
        return NoopSolver()
    if spec.startswith("replay:"):
        return ReplaySolver(Path(spec.removeprefix("replay:")), known_ids)
    if spec in ("baseline:templates", "baseline:templates+fault"):
        from truepass.solvers.templates import TemplateSolver

        return TemplateSolver(given_fault=spec.endswith("+fault"))
    raise InputError(f"unknown solver '{spec}' (known: {SOLVER_HELP})", field="--solver")
