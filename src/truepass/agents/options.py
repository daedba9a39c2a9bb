"""The agent's options (panel "Agents" of ``run`` and ``estimate``), read by the CLI at start:
a light module."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from truepass.agentic.protocol import AgentProtocol

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
    agent_steps: int = Field(
        AGENT_STEPS, ge=1, description="Model calls an agent attempt may make."
    )
    agent_time: float = Field(
        AGENT_TIME_S,
        ge=1.0,
        description="Seconds an agent attempt may take (model latency as recorded, plus its "
        "commands).",
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

    def suffix(self, temperature: float) -> str:
        """An agent solver's name suffix: ``#PROTOCOL``, then the limits that differ from the
        defaults (``-sN`` steps, ``-tS`` seconds, ``-tokN`` tokens, ``-usdC`` dollars), ``@tT``."""
        out = f"#{self.agent_protocol.value}"
        if self.agent_steps != AGENT_STEPS:
            out += f"-s{self.agent_steps}"
        if self.agent_time != AGENT_TIME_S:
            out += f"-t{self.agent_time:g}"
        if self.agent_tokens is not None:
            out += f"-tok{self.agent_tokens}"
        if self.agent_cost is not None:
            out += f"-usd{self.agent_cost:g}"
        if temperature:
            out += f"@t{temperature:g}"
        return out
