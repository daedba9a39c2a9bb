"""How much pass@1 drops when hidden tests are added: visible-only against every test.

Read from a run's records (``results.jsonl``). An attempt passes *visible* when it passes the
visible cases (``plausible``, ``overfit`` or ``correct``) and passes *all* when no case of any
phase fails it (an unflagged ``correct``; ``plausible`` in runs of truepass versions that gave
that verdict to codegen problems without hidden cases). pass@1 is the mean
over samples of the share of passing attempts (the unbiased estimator for k = 1).
"""

from __future__ import annotations

from collections import defaultdict

from pydantic import BaseModel, Field

from truepass.records import AttemptRecord, is_correct
from truepass.vocabulary import NOT_COUNTED, PASSES_VISIBLE


class Drop(BaseModel):
    """pass@1 of one solver on the visible cases and on all cases."""

    solver: str
    samples: int = Field(description="samples with at least one counted attempt")
    visible: float = Field(description="pass@1 on the visible cases only")
    hardened: float = Field(description="pass@1 on visible + hidden cases")
    drop: float = Field(description="visible - hardened")
    lost: list[str] = Field(
        default_factory=list, description="samples where some attempt passes visible, fails hidden"
    )


def passes_all(record: AttemptRecord) -> bool:
    """No case of any phase fails the attempt (and no fake-fix flag casts doubt on it)."""
    return record.verdict == "plausible" or is_correct(record)


def pass_at_1_drop(records: list[AttemptRecord]) -> list[Drop]:
    """Per solver (in order of first appearance): pass@1 visible, hardened, and the drop."""
    by_solver: dict[str, dict[str, list[AttemptRecord]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        if r.verdict not in NOT_COUNTED:
            by_solver[r.solver][r.sample_id].append(r)
    out = []
    for solver, samples in by_solver.items():
        visible = [
            sum(r.verdict in PASSES_VISIBLE for r in rs) / len(rs) for rs in samples.values()
        ]
        full = [sum(passes_all(r) for r in rs) / len(rs) for rs in samples.values()]
        vis, hard = sum(visible) / len(visible), sum(full) / len(full)
        lost = sorted(s for s, rs in samples.items() if any(r.verdict == "overfit" for r in rs))
        out.append(
            Drop(solver=solver, samples=len(samples), visible=round(vis, 4),
                 hardened=round(hard, 4), drop=round(vis - hard, 4), lost=lost)
        )  # fmt: skip
    return out
