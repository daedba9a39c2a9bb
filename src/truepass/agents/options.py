"""The agent's options (panel "Agents" of ``run`` and ``estimate``), read by the CLI at start:
a light module."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from truepass.agentic.protocol import AgentProtocol

if TYPE_CHECKING:
    from truepass.agentic.limits import AgentLimits

AGENT_STEPS = 30
AGENT_TIME_S = 600.0


class AgentOptions(BaseModel):
    """The agent's options (panel "Agents" of ``run`` and ``estimate``): how it acts and the
    limits of one attempt."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_protocol: AgentProtocol = Field(
        AgentProtocol.TEXT,
        description="How agent:MODEL solvers act: text (one fenced shell block per reply, any "
        "model) or tools (tool calls, openai: endpoints that support them).",
    )
    agent_steps: int | None = Field(
        None,
        ge=1,
        description=f"Model calls an agent attempt may make (default: the family's; "
        f"{AGENT_STEPS}, rebuild 1000).",
    )
    agent_time: float | None = Field(
        None,
        ge=1.0,
        description="Seconds an agent attempt may take: model latency as recorded, plus its "
        f"commands (default: the family's; {AGENT_TIME_S:g}, rebuild 21600 = 6 h).",
    )
    agent_step_time: float | None = Field(
        None,
        ge=1.0,
        description="Seconds one command of an agent may run (default: the family's; --timeout, "
        "rebuild 180).",
    )
    agent_warn_steps: int | None = Field(
        None,
        ge=0,
        description="Warn the agent from this many steps left (default: the family's; 3, "
        "rebuild 20).",
    )
    agent_warn_time: float | None = Field(
        None,
        ge=1.0,
        description="Warn the agent from this many seconds left (default: the family's; none, "
        "rebuild 600).",
    )
    agent_tokens: int | None = Field(
        None,
        ge=1,
        description="Prompt and completion tokens an agent attempt may use (default: no limit).",
    )
    agent_cost: float | None = Field(
        None,
        ge=0.0,
        description="USD an agent attempt may spend (needs the model's price; default: no limit).",
    )

    def limits(self, defaults: AgentLimits | None) -> AgentLimits:
        """The limits of one attempt: the family's defaults for its task (None: the loop's),
        with every option given here in their place."""
        from truepass.agentic.limits import AgentLimits

        base = defaults or AgentLimits(steps=AGENT_STEPS, time_s=AGENT_TIME_S)
        given = {
            "steps": self.agent_steps,
            "time_s": self.agent_time,
            "step_time_s": self.agent_step_time,
            "warn_steps": self.agent_warn_steps,
            "warn_time_s": self.agent_warn_time,
            "tokens": self.agent_tokens,
            "cost_usd": self.agent_cost,
        }
        return base.model_copy(update={k: v for k, v in given.items() if v is not None})

    def suffix(self, temperature: float) -> str:
        """An agent solver's name suffix: ``#PROTOCOL``, then the limits given (``-sN`` steps,
        ``-tS`` seconds, ``-stS`` seconds a command, ``-wsN``/``-wtS`` warnings, ``-tokN``
        tokens, ``-usdC`` dollars), ``@tT``. No limit given: the family's defaults."""
        out = f"#{self.agent_protocol.value}"
        for value, tag in (
            (self.agent_steps, "s"),
            (self.agent_time, "t"),
            (self.agent_step_time, "st"),
            (self.agent_warn_steps, "ws"),
            (self.agent_warn_time, "wt"),
            (self.agent_tokens, "tok"),
            (self.agent_cost, "usd"),
        ):
            if value is not None:
                out += f"-{tag}{value if isinstance(value, int) else format(value, 'g')}"
        if temperature:
            out += f"@t{temperature:g}"
        return out
