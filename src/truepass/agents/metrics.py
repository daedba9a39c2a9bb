"""Process metrics of agent attempts, per solver: what the summary adds (``metrics`` in
summary.json, through :meth:`truepass.families.base.Family.metrics`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from truepass.agents.trajectory import EndReason, ProcessMetrics
from truepass.records import AttemptRecord

PREFIX = "agent_"
FLAT = (
    "steps",
    "edits",
    "files_touched",
    "test_runs",
    "tokens",
    "cost_usd",
    "ran_tests_before_finish",
    "rewrote_files",
)
"""What of :class:`ProcessSummary` the summary's ``metrics`` show (prefixed ``agent_``)."""


class _Recorded(BaseModel):
    """What the metrics read of ``solver_meta.agent`` (a :class:`Trajectory`, as stored)."""

    model_config = ConfigDict(extra="ignore")

    end_reason: EndReason
    metrics: ProcessMetrics


class ProcessSummary(BaseModel):
    """Process metrics over a solver's agent attempts: means per attempt, shares of attempts."""

    model_config = ConfigDict(frozen=True)

    attempts: int
    steps: float
    format_errors: float
    commands: float
    test_runs: float
    edits: float
    files_touched: float
    tokens: float
    time_s: float
    cost_usd: float | None = Field(description="None when some attempt's price is unknown")
    ran_tests_before_finish: float = Field(description="share of attempts")
    rewrote_files: float = Field(description="share of attempts that changed a file again")
    ended: dict[str, float] = Field(description="share of attempts per end reason")

    def as_metrics(self) -> dict[str, float]:
        """The main ones flat, as a family's metrics (:data:`FLAT`, then ``agent_submitted``,
        the share of attempts the agent ended itself); ``cost_usd`` only when known."""
        data = self.model_dump()
        out = {f"{PREFIX}{name}": float(data[name]) for name in FLAT if data[name] is not None}
        out[f"{PREFIX}submitted"] = self.ended.get(EndReason.SUBMITTED.value, 0.0)
        return out


def recorded(record: AttemptRecord) -> _Recorded | None:
    """The end reason and process metrics of an agent attempt (None for other attempts)."""
    agent = record.solver_meta.get("agent")
    return _Recorded.model_validate(agent) if isinstance(agent, dict) else None


def process_summary(records: Iterable[AttemptRecord]) -> ProcessSummary | None:
    """The process metrics of the agent attempts among ``records`` (None when there are none)."""
    found = [r for r in map(recorded, records) if r is not None]
    if not found:
        return None
    n = len(found)
    m = [r.metrics for r in found]

    def mean(values: Iterable[float]) -> float:
        return round(sum(values) / n, 4)

    costs = [x.cost_usd for x in m]
    ends = Counter(r.end_reason.value for r in found)
    return ProcessSummary(
        attempts=n,
        steps=mean(x.steps for x in m),
        format_errors=mean(x.format_errors for x in m),
        commands=mean(x.commands for x in m),
        test_runs=mean(x.test_runs for x in m),
        edits=mean(x.edits for x in m),
        files_touched=mean(len(x.files_touched) for x in m),
        tokens=mean(x.prompt_tokens + x.completion_tokens for x in m),
        time_s=mean(x.time_s for x in m),
        cost_usd=None
        if any(c is None for c in costs)
        else round(sum(c or 0.0 for c in costs) / n, 6),
        ran_tests_before_finish=mean(x.ran_tests_before_finish for x in m),
        rewrote_files=mean(bool(x.files_rewritten) for x in m),
        ended={reason: round(count / n, 4) for reason, count in sorted(ends.items())},
    )


def process_metrics(records: Iterable[AttemptRecord]) -> dict[str, float]:
    """:func:`process_summary` flat (:meth:`ProcessSummary.as_metrics`; empty when no attempt
    is an agent's)."""
    summary = process_summary(records)
    return summary.as_metrics() if summary else {}


__all__ = ["ProcessSummary", "process_metrics", "process_summary", "recorded"]
