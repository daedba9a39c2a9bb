"""``agent:MODEL``: a model that acts in a sandboxed workspace until it submits (docs/agents.md).

``MODEL`` is spelled as for the model solvers (``agent:openai:NAME``, ``agent:local:smollm2``);
the model comes with its settings and response cache from
:func:`truepass.solvers.llm_factory.llm_model`. The solver serves every family whose
:meth:`~truepass.solvers.capabilities.TakesAgents.agent_task` gives a task.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from truepass.agentic.protocol import AgentProtocol
from truepass.agentic.trajectory import Step, Trajectory
from truepass.agents.loop import AgentLoop
from truepass.agents.options import AgentOptions
from truepass.agents.protocols import make_protocol
from truepass.answers import Answer
from truepass.errors import InputError
from truepass.models import price_table
from truepass.models.base import Message, Model
from truepass.models.cost import Price, cost_usd, find_price
from truepass.prompts.guard import check_no_leaks
from truepass.solvers.base import SolveContext
from truepass.solvers.capabilities import TakesAgents
from truepass.solvers.llm import ModelSolver
from truepass.solvers.settings import LLMOptions

if TYPE_CHECKING:
    from truepass.families.base import Family

PREFIX = "agent:"


class AgentSolver(ModelSolver):
    """One model acting through one protocol under the run's agent limits; ``options.samples``
    attempts per sample."""

    families = None  # any family with an agent task (see serves)

    def __init__(
        self, model: Model, options: LLMOptions, agent: AgentOptions, prices: Mapping[str, Price]
    ) -> None:
        self.model = model
        self.options = options
        self.prices = prices
        self.protocol = agent.agent_protocol
        self.name = PREFIX + model.id + agent.suffix(options.temperature)
        self.agent = agent

    def serves(self, family: Family) -> str | None:
        if not isinstance(family, TakesAgents):
            return f"{family.name} samples take no agents (the family gives no agent task)"
        return None

    def solve(self, sample: Any, attempt: int, ctx: SolveContext) -> Answer | None:
        family = ctx.family
        task = family.agent_task(sample) if isinstance(family, TakesAgents) else None
        if task is None or not isinstance(family, TakesAgents):
            return Answer(no_patch=True, meta={"model": self.model.id, "agent": None,
                                               "end_reason": "no-task"})  # fmt: skip
        key = family.answer_key(sample)

        def check(messages: list[Message]) -> None:
            check_no_leaks(messages, key, sample.id)

        params = self.params(attempt)
        result = AgentLoop(
            self.model,
            make_protocol(self.protocol),
            task,
            limits=self.agent.limits(task.limits),
            params=params,
            sandbox=ctx.config.limits,
            price=self._price,
            check_prompt=check,
            key=attempt,
        ).run()
        t = result.trajectory
        changed = not result.answer.no_patch
        meta: dict[str, object] = {
            "model": self.model.id,
            "protocol": self.protocol.value,
            "temperature": self.options.temperature,
            "seed": params.seed,
            "end_reason": t.end_reason.value,
            "parse_kind": "workspace-diff" if changed else "none",
            "parse_detail": f"ended: {t.end_reason.value}"
            + (f" ({t.end_detail})" if t.end_detail else ""),
            "rounds": rounds(t),
            "agent": t.model_dump(mode="json"),
        }
        return dataclasses.replace(result.answer, meta=meta, usage=result.usage)

    def _price(self, prompt_tokens: int, completion_tokens: int) -> float | None:
        return cost_usd(self.model.id, prompt_tokens, completion_tokens, self.prices)


def rounds(trajectory: Trajectory) -> list[dict[str, object]]:
    """The steps as ``solver_meta.rounds`` (what the report shows of model solvers' rounds, and
    what the usage summary reads): the first with the prompt, each with the model's message and
    the observation it got back (``feedback``)."""
    first = [
        {"role": "system", "content": trajectory.system},
        {"role": "user", "content": trajectory.task},
    ]
    return [
        {
            "round": s.step,
            **({"prompt": first} if s.step == 1 else {}),
            "response": s.response,
            "feedback": s.observation,
            "action": _action_text(s),
            "exit_code": s.exit_code,
            "changed_files": s.changed_files,
            "cached": s.cached,
            "prompt_tokens": s.prompt_tokens,
            "completion_tokens": s.completion_tokens,
            "finish_reason": s.finish_reason,
        }
        for s in trajectory.steps
    ]


def _action_text(step: Step) -> str:
    """A step's action in a few words (``bash: sed -i ...``), or its format error."""
    action = step.action
    if action is None:
        return f"format error: {step.format_error}"
    fields = action.model_dump(exclude={"tool"})
    text = next((str(v) for v in fields.values() if v is not None), "")
    text = " ".join(text.split())
    return f"{action.tool}: {text[:80]}" if text else action.tool


def agent_solver(spec: str, options: LLMOptions, agent: AgentOptions) -> AgentSolver:
    """The solver of ``agent:MODEL``.

    Raises:
        InputError: MODEL is not a model spec; ``--agent-protocol tools`` with a model that has
            no tool calls; ``--agent-cost`` with a model whose price is unknown.
    """
    from truepass.solvers.llm_factory import inner_model_spec, llm_model

    model_spec = inner_model_spec(spec, PREFIX)
    if agent.agent_protocol is AgentProtocol.TOOLS and not model_spec.startswith("openai:"):
        raise InputError(
            f"'{spec}': --agent-protocol tools needs an openai: endpoint (local models have "
            "no tool calls); use --agent-protocol text",
            field="--agent-protocol",
        )
    prices = price_table(list(options.prices))
    if agent.agent_cost is not None and find_price(model_spec, prices) is None:
        raise InputError(
            f"'{spec}': --agent-cost needs the price of {model_spec}: give "
            f"--price {model_spec}=IN,OUT (USD per million tokens)",
            field="--agent-cost",
        )
    return AgentSolver(llm_model(model_spec, options), options, agent, prices)


__all__ = ["PREFIX", "AgentSolver", "agent_solver", "rounds"]
