"""``agent:MODEL``: the model acting in a persistent sandboxed workspace (:mod:`truepass.agents`,
docs/agents.md), on every family that gives agent tasks
(:class:`~truepass.solvers.capabilities.TakesAgents`)."""

from __future__ import annotations

from truepass.agents.options import AgentOptions
from truepass.solvers.base import Solver
from truepass.solvers.registry import SolverKind, SolverOptions


def _build(spec: str, options: SolverOptions, known_ids: set[str] | None) -> list[Solver]:
    from truepass.agents.solver import agent_solver

    own = options.of(AGENT)
    assert isinstance(own, AgentOptions)
    return [agent_solver(spec, options.models, own)]


ORDER = 50
AGENT = SolverKind("agent", "agent:MODEL", _build, options=AgentOptions, panel="Agents")
KINDS = (AGENT,)
