"""What ends an agent's attempt besides submitting, and when it is warned (``--agent-*``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class AgentLimits(BaseModel):
    """What ends an attempt besides submitting (``--agent-steps``, ``--agent-time``,
    ``--agent-tokens``, ``--agent-cost``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    steps: int = Field(30, ge=1, description="model calls")
    time_s: float = Field(600.0, gt=0, description="model latency (as recorded) plus commands")
    tokens: int | None = Field(None, ge=1, description="prompt plus completion tokens")
    cost_usd: float | None = Field(None, ge=0, description="USD, priced per call")
    format_errors: int = Field(3, ge=1, description="replies in a row without a valid action")
    warn_steps: int = Field(3, ge=0, description="steps left from which the agent is warned")
    step_time_s: float | None = Field(
        None, gt=0, description="seconds one command may run (None: the sandbox's timeout)"
    )
    warn_time_s: float | None = Field(
        None, gt=0, description="seconds left from which the agent is warned (None: never)"
    )
