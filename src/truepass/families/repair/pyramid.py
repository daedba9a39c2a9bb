"""Seed 002's four-layer pyramid as per-attempt layer scores and a composite score per weight
profile (docs/metrics.md, "The pyramid and its composite score").

Per counted attempt, each layer scores 0..1:

1. **basic correctness**: 1 when the patch passes the visible tests (plausible, overfit,
   correct);
2. **semantic correctness**: 1 when it is correct (hidden tests too, no fake-fix flag);
3. **code quality** (0 unless it passes the visible tests and changed code): the mean of its
   style consistency (:mod:`~truepass.families.repair.style`, when measured) and its
   readability (:func:`readability`: 1 when it adds no more cyclomatic complexity than the
   reference fix, 1/2 for one branch more, 1/3 for two; a record without the score: from the
   quality delta, against no growth);
4. **fix process** (0 unless it passes the visible tests and changed code): the mean of
   ``same_strategy`` (its fix strategy is the reference fix's,
   :mod:`~truepass.families.repair.strategy`) and whether the patch touches a fault line
   (``localisation.hit_line``), of those known.

The composite of a profile is ``sum_i w_i * layer_i`` with its weights (summing to 1), its mean
over the solver's counted attempts with a 95% bootstrap interval.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from truepass.records import is_correct
from truepass.vocabulary import PASSES_VISIBLE, counted

if TYPE_CHECKING:
    from truepass.metrics.quality import CodeMetrics
    from truepass.records import AttemptRecord

READABILITY = "readability"
"""The per-attempt score (``Judged.scores``): 1 / (1 + the complexity added beyond the
reference fix's)"""

PROFILES: dict[str, tuple[float, float, float, float]] = {
    "prototype": (0.5, 0.3, 0.1, 0.1),
    "production-review": (0.1, 0.3, 0.3, 0.3),
}
"""Named weights of layers 1 to 4: quick prototyping weighs layer 1; production review weighs
layers 3 and 4 (seed 002: 对于一个追求快速原型验证的场景可能更看重第一层的通过率而对于一个生产
代码的辅助审核场景第三层和第四层的权重就必须大大提高)."""


def _added_complexity(
    buggy: dict[str, str], patched: dict[str, str], metrics: CodeMetrics
) -> int | None:
    paths = [
        p for p in {*buggy, *patched}
        if p.endswith(metrics.code_suffix) and buggy.get(p) != patched.get(p)
    ]  # fmt: skip
    total = 0
    for path in paths:
        before = metrics.complexity(buggy[path]) if path in buggy else 0
        after = metrics.complexity(patched[path]) if path in patched else 0
        if before is None or after is None:
            return None
        total += after - before
    return total


def readability(
    buggy: dict[str, str],
    attempt: dict[str, str],
    reference: dict[str, str],
    metrics: CodeMetrics | None,
) -> float | None:
    """``1 / (1 + max(0, added - max(0, added_by_reference)))``, ``added`` the cyclomatic
    complexity a patch adds to the code files it changes: 1 when it adds no more branches than
    the reference fix (a guard the bug needs is no needless complexity), 1/2 for one more; None
    when it changes no code file or the complexity cannot be read."""
    if metrics is None:
        return None
    mine = _added_complexity(buggy, attempt, metrics)
    theirs = _added_complexity(buggy, reference, metrics)
    if mine is None or not any(
        p.endswith(metrics.code_suffix) and buggy.get(p) != attempt.get(p)
        for p in {*buggy, *attempt}
    ):
        return None
    return round(1.0 / (1.0 + max(0, mine - max(0, theirs or 0))), 4)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def layers(record: AttemptRecord) -> tuple[float, float, float, float]:
    """The four layer scores of one attempt."""
    from truepass.families.repair.evidence import RepairEvidence
    from truepass.families.repair.strategy import SAME_STRATEGY
    from truepass.families.repair.style import STYLE

    passes = record.verdict in PASSES_VISIBLE
    first, second = float(passes), float(is_correct(record))
    evidence = RepairEvidence.of(record)
    quality = evidence.quality
    if not passes or quality is None:
        return first, second, 0.0, 0.0
    third = []
    if READABILITY in record.scores:
        third.append(record.scores[READABILITY])
    elif quality.complexity_after is not None and quality.complexity_before is not None:
        third.append(1.0 / (1.0 + max(0, quality.complexity_after - quality.complexity_before)))
    if STYLE in record.scores:
        third.append(record.scores[STYLE])
    fourth = []
    if SAME_STRATEGY in record.scores:
        fourth.append(record.scores[SAME_STRATEGY])
    if evidence.localisation is not None:
        fourth.append(float(evidence.localisation.hit_line))
    return first, second, _mean(third) or 0.0, _mean(fourth) or 0.0


def composite(scores: tuple[float, float, float, float], weights: tuple[float, ...]) -> float:
    return sum(w * s for w, s in zip(weights, scores, strict=True))


def pyramid_metrics(
    records: list[AttemptRecord], more: Mapping[str, tuple[float, ...]] | None = None
) -> dict[str, float]:
    """Over counted attempts: each layer's mean (``layer[N]``), the composite of each profile
    (``composite[PROFILE]``; ``more``: profiles beside :data:`PROFILES`, the repair family's
    ``custom`` one) and the mean ``readability`` (of the attempts that changed code)
    with their 95% bootstrap intervals, and the mean complexity delta of the patches that
    changed code (``complexity_delta``)."""
    from truepass.families.base import interval
    from truepass.families.repair.evidence import RepairEvidence

    mine = [r for r in records if counted(r.verdict)]
    if not mine:
        return {}
    scored = [layers(r) for r in mine]
    out: dict[str, float] = {}
    for i in range(4):
        values = [s[i] for s in scored]
        name = f"layer[{i + 1}]"
        out[name] = round(sum(values) / len(values), 4)
        out |= interval(name, values)
    for profile, weights in {**PROFILES, **(more or {})}.items():
        values = [composite(s, weights) for s in scored]
        name = f"composite[{profile}]"
        out[name] = round(sum(values) / len(values), 4)
        out |= interval(name, values)
    readable = [r.scores[READABILITY] for r in mine if READABILITY in r.scores]
    if readable:
        out[READABILITY] = round(sum(readable) / len(readable), 4)
        out |= interval(READABILITY, readable)
    deltas = [
        q.complexity_after - q.complexity_before
        for r in mine
        if (q := RepairEvidence.of(r).quality) is not None
        and q.complexity_after is not None
        and q.complexity_before is not None
    ]
    if deltas:
        out["complexity_delta"] = round(sum(deltas) / len(deltas), 4)
    return out
