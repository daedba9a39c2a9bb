"""The workflow's options (panel "Workflow" of ``run`` and ``estimate``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

WORKFLOW_CANDIDATES = 5
WORKFLOW_TEMPERATURE = 0.8
WORKFLOW_FUZZ = 20


class WorkflowOptions(BaseModel):
    """How many candidates a ``workflow:MODEL`` attempt asks for, how they are sampled, and how
    many fuzzed inputs selection compares them on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    workflow_candidates: int = Field(
        WORKFLOW_CANDIDATES,
        ge=1,
        le=100,
        description="Candidate patches a workflow:MODEL solver asks for per attempt.",
    )
    workflow_temperature: float = Field(
        WORKFLOW_TEMPERATURE,
        ge=0.0,
        description="Sampling temperature of the workflow's candidates (each with its own seed).",
    )
    workflow_fuzz: int = Field(
        WORKFLOW_FUZZ,
        ge=0,
        description="Fuzzed inputs per changed function the workflow compares its candidates on "
        "(0: none).",
    )

    def suffix(self, temperature: float) -> str:
        """A workflow solver's name suffix: ``#cN`` (candidates), then what differs from the
        defaults (``-tT`` the candidates' temperature, ``-fN`` fuzzed inputs), ``@tT``."""
        out = f"#c{self.workflow_candidates}"
        if self.workflow_temperature != WORKFLOW_TEMPERATURE:
            out += f"-t{self.workflow_temperature:g}"
        if self.workflow_fuzz != WORKFLOW_FUZZ:
            out += f"-f{self.workflow_fuzz}"
        if temperature:
            out += f"@t{temperature:g}"
        return out
