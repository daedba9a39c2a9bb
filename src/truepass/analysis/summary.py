"""Per-solver summary of a run: verdict counts and rates over valid attempts (summary.json)."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable

from pydantic import BaseModel, Field

from truepass.records import AttemptRecord

PASSES_VISIBLE = {"plausible", "overfit", "correct"}
NOT_COUNTED = {"invalid-sample", "infra-error"}


class Rates(BaseModel):
    """Counts and rates over the attempts that count (not invalid samples, not infra errors)."""

    attempts: int
    counted: int
    verdicts: dict[str, int]
    plausible: int = Field(description="attempts that pass the visible tests")
    correct: int
    plausible_rate: float | None
    correct_rate: float | None
    overfit_share: float | None = Field(description="overfit / plausible")


class SolverSummary(BaseModel):
    solver: str
    overall: Rates
    by_defect_type: dict[str, Rates]
    flags: dict[str, int]
    invalid_samples: list[str]
    infra_errors: list[str]
    median_judge_s: float | None


class Summary(BaseModel):
    suite: str
    solvers: list[SolverSummary]


def rates(records: list[AttemptRecord]) -> Rates:
    """Verdict counts and rates; denominators leave out invalid samples and infra errors."""
    verdicts = Counter(r.verdict for r in records)
    counted = sum(n for v, n in verdicts.items() if v not in NOT_COUNTED)
    plausible = sum(verdicts[v] for v in PASSES_VISIBLE)
    correct = verdicts["correct"]
    return Rates(
        attempts=len(records),
        counted=counted,
        verdicts=dict(sorted(verdicts.items())),
        plausible=plausible,
        correct=correct,
        plausible_rate=round(plausible / counted, 4) if counted else None,
        correct_rate=round(correct / counted, 4) if counted else None,
        overfit_share=round(verdicts["overfit"] / plausible, 4) if plausible else None,
    )


def summarize(suite: str, records: Iterable[AttemptRecord]) -> Summary:
    """Group records by solver and summarise each."""
    by_solver: dict[str, list[AttemptRecord]] = defaultdict(list)
    for r in records:
        by_solver[r.solver].append(r)
    out = []
    for solver, recs in by_solver.items():
        by_type: dict[str, list[AttemptRecord]] = defaultdict(list)
        for r in recs:
            by_type[r.defect_type].append(r)
        flags = Counter(f for r in recs for f in r.flags)
        judged = [r.duration_s for r in recs if r.verdict not in NOT_COUNTED]
        out.append(
            SolverSummary(
                solver=solver,
                overall=rates(recs),
                by_defect_type={t: rates(rs) for t, rs in sorted(by_type.items())},
                flags=dict(sorted(flags.items())),
                invalid_samples=sorted(
                    {r.sample_id for r in recs if r.verdict == "invalid-sample"}
                ),
                infra_errors=sorted({r.sample_id for r in recs if r.verdict == "infra-error"}),
                median_judge_s=round(statistics.median(judged), 3) if judged else None,
            )
        )
    return Summary(suite=suite, solvers=out)


def _ids(records: list[AttemptRecord], verdict: str) -> list[str]:
    return sorted({r.sample_id for r in records if r.verdict == verdict})
