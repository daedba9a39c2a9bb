"""Repair's own solver kinds: the classic template baselines (``baseline:templates``, with SBFL
localisation, and ``baseline:templates+fault``) and the five-stage workflow (``workflow:MODEL``,
:mod:`truepass.families.repair.workflow`). The solver registry finds ``KINDS`` here."""

from __future__ import annotations

from truepass.families.repair.workflow.options import WorkflowOptions
from truepass.solvers.base import Solver
from truepass.solvers.registry import SolverKind, SolverOptions

TEMPLATES = ("baseline:templates", "baseline:templates+fault")


def _templates(spec: str, options: SolverOptions, known_ids: set[str] | None) -> list[Solver]:
    from truepass.families.repair.solvers.templates import TemplateSolver

    return [TemplateSolver(given_fault=spec.endswith("+fault"))]


def _workflow(spec: str, options: SolverOptions, known_ids: set[str] | None) -> list[Solver]:
    from truepass.families.repair.workflow.solver import workflow_solver

    own = options.of(WORKFLOW)
    assert isinstance(own, WorkflowOptions)
    return [workflow_solver(spec, options.models, own)]


WORKFLOW = SolverKind(
    "workflow", "workflow:MODEL", _workflow, options=WorkflowOptions, panel="Workflow"
)
KINDS = (
    SolverKind(
        "baseline:templates",
        " | ".join(TEMPLATES),
        _templates,
        accepts=lambda spec: spec in TEMPLATES,
    ),
    WORKFLOW,
)
