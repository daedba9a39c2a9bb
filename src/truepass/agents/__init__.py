"""Agents that act: a tool-using loop over a persistent sandboxed workspace (docs/agents.md).

The loop (:mod:`~truepass.agents.loop`) runs in truepass's own process; only the agent's actions
(:mod:`~truepass.agentic.tools`) run in the sandbox, in one
:class:`~truepass.sandbox.session.SandboxSession` per attempt over the starting files of the
family's :class:`~truepass.agentic.task.AgentTask`. A model states its actions through one of the
protocols of :mod:`~truepass.agents.protocols`; every step is recorded in a
:class:`~truepass.agentic.trajectory.Trajectory`, with process metrics
(:mod:`~truepass.agentic.metrics` sums them per solver). The solver is ``agent:MODEL``
(:mod:`~truepass.agents.solver`).

Nothing is imported here: each module is imported where it is used.
"""
