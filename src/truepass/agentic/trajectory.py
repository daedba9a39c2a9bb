"""What an agent attempt records: its limits, every step, how it ended, and its process metrics
(``solver_meta.agent`` of the attempt's record; docs/agents.md)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from truepass.agentic.limits import AgentLimits
from truepass.agentic.protocol import AgentProtocol
from truepass.agentic.tools import Action, runs_tests
from truepass.models.base import ToolCall


class EndReason(StrEnum):
    """Why an agent attempt ended. Whatever the reason, the workspace as it was then is the
    answer that is judged."""

    SUBMITTED = "submitted"
    """the agent submitted"""
    STEP_LIMIT = "step-limit"
    """it made ``steps`` model calls"""
    TIME_LIMIT = "time-limit"
    """its time (model latency and commands) reached ``time_s``"""
    TOKEN_LIMIT = "token-limit"
    """its prompt and completion tokens reached ``tokens``"""
    COST_LIMIT = "cost-limit"
    """its cost reached ``cost_usd``"""
    CONTEXT_LIMIT = "context-limit"
    """the conversation no longer fits the model's context, even with old outputs elided"""
    MODEL_ERROR = "model-error"
    """the model refused a request for good (e.g. HTTP 400); transient failures are infra
    errors instead, retried when the run is resumed"""
    FORMAT_ERRORS = "format-errors"
    """``format_errors`` replies in a row held no valid action"""


class Step(BaseModel):
    """One step: a model call, the action parsed from it, and what the action did."""

    model_config = ConfigDict(frozen=True)

    step: int = Field(ge=1)
    response: str = Field(description="the model's message")
    tool_calls: list[ToolCall] = Field(
        default_factory=list, description="the tools it called (tools protocol)"
    )
    action: Action | None = Field(description="the action parsed from it; None: none valid")
    format_error: str | None = Field(None, description="why no action was found")
    observation: str = Field(description="what the agent was shown next (display length)")
    observation_full: str | None = Field(
        None, description="the whole output, when the observation shortened it"
    )
    exit_code: int | None = None
    timed_out: bool = False
    changed_files: list[str] = Field(
        default_factory=list, description="workspace files this step created, changed or deleted"
    )
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    finish_reason: str | None = None
    model_s: float = Field(0.0, description="the model call's latency (as recorded)")
    action_s: float = Field(0.0, description="the action's wall time")
    elided: int = Field(0, description="earlier outputs elided from this step's prompt")


class ProcessMetrics(BaseModel):
    """How the attempt went about it (summed over its steps)."""

    model_config = ConfigDict(frozen=True)

    steps: int
    format_errors: int
    commands: int = Field(description="shell commands run (test runs included)")
    test_runs: int = Field(description="run_tests actions and shell commands calling pytest")
    edits: int = Field(description="steps that changed the workspace")
    files_touched: list[str] = Field(description="files some step changed")
    files_rewritten: list[str] = Field(
        description="files changed again in a later step than the one that first changed them"
    )
    ran_tests_before_finish: bool = Field(
        description="a test run came after the last change to the workspace"
    )
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None = Field(description="None when the model's price is unknown")
    time_s: float = Field(description="model latency (as recorded) plus the actions' time")

    @classmethod
    def of(cls, steps: list[Step], cost_usd: float | None) -> ProcessMetrics:
        """The metrics of ``steps``."""
        first: dict[str, int] = {}
        rewritten: set[str] = set()
        for s in steps:
            for path in s.changed_files:
                if path in first and first[path] != s.step:
                    rewritten.add(path)
                first.setdefault(path, s.step)
        last_edit = max((s.step for s in steps if s.changed_files), default=0)
        tests = [s.step for s in steps if runs_tests(s.action)]
        return cls(
            steps=len(steps),
            format_errors=sum(s.format_error is not None for s in steps),
            commands=sum(s.exit_code is not None or s.timed_out for s in steps),
            test_runs=len(tests),
            edits=sum(bool(s.changed_files) for s in steps),
            files_touched=sorted(first),
            files_rewritten=sorted(rewritten),
            ran_tests_before_finish=any(t >= last_edit for t in tests),
            prompt_tokens=sum(s.prompt_tokens for s in steps),
            completion_tokens=sum(s.completion_tokens for s in steps),
            cost_usd=None if cost_usd is None else round(cost_usd, 6),
            time_s=round(sum(s.model_s + s.action_s for s in steps), 3),
        )


class Trajectory(BaseModel):
    """One agent attempt from start to end."""

    model_config = ConfigDict(frozen=True)

    protocol: AgentProtocol
    limits: AgentLimits
    system: str = Field(description="the system prompt")
    task: str = Field(description="the first user message: the family's task text")
    steps: list[Step]
    end_reason: EndReason
    end_detail: str = ""
    metrics: ProcessMetrics


__all__ = ["EndReason", "ProcessMetrics", "Step", "Trajectory"]
