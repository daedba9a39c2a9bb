"""Solvers: the protocol (:mod:`~truepass.solvers.base`), the registry of solver kinds
(:mod:`~truepass.solvers.registry`), the model options every model-driven kind shares
(:mod:`~truepass.solvers.settings`), what solvers ask of a family
(:mod:`~truepass.solvers.capabilities`), and the built-in kinds (:mod:`truepass.solvers.kinds`:
``oracle``, ``noop``, ``replay:FILE``, model specs, ``agent:MODEL``; families add their own)."""

from __future__ import annotations

from truepass.solvers.base import SolveContext, Solver
from truepass.solvers.registry import SolverKind, SolverOptions, make_solver, make_solvers
from truepass.solvers.settings import LLMOptions

__all__ = [
    "LLMOptions",
    "SolveContext",
    "Solver",
    "SolverKind",
    "SolverOptions",
    "make_solver",
    "make_solvers",
]
