"""Process metrics of agent attempts, per solver: ``process`` in summary.json
(:class:`ProcessSummary`, built by :mod:`truepass.analysis.summary`), shown by the report's
Agent process table and ``truepass summary``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from truepass.agentic.trajectory import EndReason, ProcessMetrics
from truepass.records import AttemptRecord, read_meta_entry


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


def recorded(record: AttemptRecord) -> _Recorded | None:
    """The end reason and process metrics of an agent attempt (None for other attempts, and for
    a record whose ``agent`` does not read as one: edited by hand, or from another version; the
    report shows such an attempt without its trajectory rather than failing)."""
    return read_meta_entry(record.solver_meta, "agent", _Recorded)


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


__all__ = ["ProcessSummary", "process_summary", "recorded"]
