"""The probe's numbers per solver (summary.json's ``metrics``; docs/metrics.md, "Memorisation"):
per role the mean of each score over counted attempts and the attempts counted, and the
difference target - control with a 95% bootstrap interval resampling each role on its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from truepass.families.memorisation.schema import Role
from truepass.families.memorisation.scoring import SCORES

if TYPE_CHECKING:
    from collections.abc import Sequence

    from truepass.records import AttemptRecord

CONTRASTED = ("exact", "near_exact", "similarity")
"""The scores whose difference target - control is given with its interval."""

RESAMPLES = 10_000
"""Bootstrap resamples of each difference's interval (seed 0)."""


def probe_metrics(records: Sequence[AttemptRecord]) -> dict[str, float]:
    """``ROLE_SCORE`` (mean), ``ROLE_n`` for each role with counted attempts, and, when both
    roles have some, ``SCORE_difference`` (target - control) with ``SCORE_difference_ci_low``
    and ``_ci_high`` (unpaired percentile bootstrap, seed 0; absent below two attempts a role).
    A record's role is its ``defect_type``."""
    from truepass.analysis.stats import unpaired_bootstrap_ci
    from truepass.vocabulary import counted

    by_role: dict[str, list[dict[str, float]]] = {r.value: [] for r in Role}
    for r in records:
        if counted(r.verdict) and r.defect_type in by_role:
            by_role[r.defect_type].append(r.scores)
    out: dict[str, float] = {}
    for role, scored in by_role.items():
        if not scored:
            continue
        out[f"{role}_n"] = len(scored)
        for name in SCORES:
            out[f"{role}_{name}"] = round(sum(s.get(name, 0.0) for s in scored) / len(scored), 4)
    target, control = by_role[Role.TARGET.value], by_role[Role.CONTROL.value]
    if not target or not control:
        return out
    for name in CONTRASTED:
        a = [s.get(name, 0.0) for s in target]
        b = [s.get(name, 0.0) for s in control]
        out[f"{name}_difference"] = round(sum(a) / len(a) - sum(b) / len(b), 4)
        ci = unpaired_bootstrap_ci(a, b, resamples=RESAMPLES, seed=0)
        if ci is not None:
            out[f"{name}_difference_ci_low"] = round(ci[0], 4)
            out[f"{name}_difference_ci_high"] = round(ci[1], 4)
    return out
