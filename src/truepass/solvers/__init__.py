"""Solvers by spec: ``oracle``, ``noop``, ``replay:FILE``, ``baseline:templates[+fault]``, model
specs (``openai:MODEL``, ``local:smollm2``, ``local:PATH.gguf``) prompted per variant, agents
(``agent:MODEL``: the model acting in a sandboxed workspace, :mod:`truepass.agents`) and the
five-stage repair workflow (``workflow:MODEL``, :mod:`truepass.families.repair.workflow`)."""

from __future__ import annotations

from pathlib import Path

from truepass.errors import InputError
from truepass.solvers.base import SolveContext, Solver
from truepass.solvers.replay import ReplaySolver
from truepass.solvers.settings import LLMOptions
from truepass.solvers.simple import NoopSolver, OracleSolver

__all__ = ["LLMOptions", "SolveContext", "Solver", "make_solver", "make_solvers"]

SOLVER_HELP = (
    "oracle | noop | replay:FILE | baseline:templates | baseline:templates+fault | "
    "openai:MODEL | local:smollm2 | local:PATH.gguf | agent:MODEL | workflow:MODEL"
)


_TEMPLATES = ("baseline:templates", "baseline:templates+fault")
_PLAIN = ("oracle", "noop", *_TEMPLATES)  # solvers that need no model code


def make_solver(spec: str, known_ids: set[str] | None = None) -> Solver:
    """Build a non-model solver (raises :class:`InputError` for an unknown spec)."""
    if spec == "oracle":
        return OracleSolver()
    if spec == "noop":
        return NoopSolver()
    if spec.startswith("replay:"):
        return ReplaySolver(Path(spec.removeprefix("replay:")), known_ids)
    if spec in _TEMPLATES:
        from truepass.families.repair.solvers.templates import TemplateSolver

        return TemplateSolver(given_fault=spec.endswith("+fault"))
    raise InputError(f"unknown solver '{spec}' (known: {SOLVER_HELP})", field="--solver")


def make_solvers(
    specs: list[str], known_ids: set[str] | None = None, llm: LLMOptions | None = None
) -> list[Solver]:
    """Every solver of a run; a model spec gives one solver per prompt variant, an agent or a
    workflow spec one solver."""
    out: list[Solver] = []
    for spec in specs:
        if spec in _PLAIN or spec.startswith("replay:"):  # no model code to load
            out.append(make_solver(spec, known_ids))
            continue
        if spec.startswith("agent:"):
            from truepass.agents.solver import agent_solver

            out.append(agent_solver(spec, llm or LLMOptions()))
            continue
        if spec.startswith("workflow:"):
            from truepass.families.repair.workflow.solver import workflow_solver

            out.append(workflow_solver(spec, llm or LLMOptions()))
            continue
        from truepass.models import is_model_spec

        if is_model_spec(spec):
            from truepass.solvers.llm_factory import llm_solvers

            llm = llm or LLMOptions()
            out.extend(llm_solvers(spec, llm))
        else:
            out.append(make_solver(spec, known_ids))
    names = [s.name for s in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise InputError(f"solver given twice: {', '.join(dupes)}", field="--solver")
    return out
