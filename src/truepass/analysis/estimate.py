"""Extrapolate a short run to a whole suite: tokens, cost, wall time."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from truepass.models import cost_usd, price_table
from truepass.store import Store
from truepass.suites.suite import Suite


@dataclass
class Estimate:
    solver: str
    attempts: int
    prompt_tokens: float
    completion_tokens: float
    cost_usd: float | None
    wall_s: float


def estimate(
    out: Path, suite: Suite, measured_samples: int, elapsed_s: float, prices: Iterable[str] = ()
) -> list[Estimate]:
    """Scale the attempts stored in ``out`` (over ``measured_samples`` samples) to ``suite``.

    Cost is priced from the tokens, so answers replayed from the cache count as fresh calls.
    """
    table = price_table(prices)
    store = Store(out / "store.sqlite")
    try:
        records = list(store.records())
    finally:
        store.close()
    scale = len(suite.samples) / max(measured_samples, 1)
    by_solver: dict[str, list] = {}  # type: ignore[type-arg]
    for r in records:
        by_solver.setdefault(r.solver, []).append(r)
    rows = []
    for solver, recs in by_solver.items():
        prompt = sum(r.usage.prompt_tokens for r in recs if r.usage)
        completion = sum(r.usage.completion_tokens for r in recs if r.usage)
        model = next((str(r.solver_meta.get("model")) for r in recs if r.usage), None)
        cost = 0.0 if model is None else cost_usd(model, prompt, completion, table)
        rows.append(
            Estimate(
                solver=solver,
                attempts=round(len(recs) * scale),
                prompt_tokens=prompt * scale,
                completion_tokens=completion * scale,
                cost_usd=None if cost is None else cost * scale,
                wall_s=elapsed_s * scale,
            )
        )
    return rows
