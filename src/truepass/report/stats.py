"""Numbers of the report: per-solver rates with 95% Wilson intervals, by defect type, usage."""

from __future__ import annotations

import contextlib
import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from truepass.agentic.metrics import ProcessSummary
from truepass.agentic.trajectory import EndReason
from truepass.analysis.summary import Rates, SolverSummary, Summary, summarize
from truepass.errors import InputError
from truepass.families import registry
from truepass.families.base import Family
from truepass.families.capabilities import Configured
from truepass.families.registry import DEFAULT as DEFAULT_FAMILY
from truepass.report.demonstrations import SolverSetting, solver_setting
from truepass.report.load import Attempt
from truepass.vocabulary import PASSES_VISIBLE, Verdict

Z95 = 1.959963984540054

# Order of verdicts in tables and charts: from the best outcome to the ones that are not counted.
VERDICTS = [v.value for v in Verdict]


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval of a binomial proportion; None when ``n`` is 0."""
    if n <= 0:
        return None
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _as_interval(value: Any) -> tuple[float, float] | None:
    """Read an interval from a summary field whatever its shape (pair, dict or model)."""
    if value is None:
        return None
    if isinstance(value, list | tuple) and len(value) == 2:
        return float(value[0]), float(value[1])
    if not isinstance(value, dict):
        value = value.model_dump() if hasattr(value, "model_dump") else vars(value)
    for lo, hi in (("low", "high"), ("lo", "hi"), ("lower", "upper")):
        if value.get(lo) is not None and value.get(hi) is not None:
            return float(value[lo]), float(value[hi])
    return None


@dataclass
class RateRow:
    """A rate with its interval, ready to show."""

    attempts: int
    counted: int
    verdicts: dict[str, int]
    correct: int
    plausible: int
    correct_rate: float | None
    plausible_rate: float | None
    correct_ci: tuple[float, float] | None
    plausible_ci: tuple[float, float] | None
    overfit_share: float | None
    unparsed: int = 0
    """counted attempts judged no-patch (parse failures)"""
    unparsed_rate: float | None = None
    correct_rate_parsed: float | None = None
    """correct / parsed attempts: parse failures left out (seed 001's rate)"""
    correct_parsed_ci: tuple[float, float] | None = None

    @property
    def gap(self) -> float | None:
        """Plausible minus correct rate: passes that the hidden tests (or flags) expose."""
        if self.plausible_rate is None or self.correct_rate is None:
            return None
        return self.plausible_rate - self.correct_rate


def rate_row(r: Rates) -> RateRow:
    """Rates from a summary, with intervals taken from it when present, else computed here."""
    correct_ci = _as_interval(getattr(r, "correct_ci", None)) or wilson(r.correct, r.counted)
    plausible_ci = _as_interval(getattr(r, "plausible_ci", None)) or wilson(r.plausible, r.counted)
    unparsed = int(getattr(r, "unparsed", r.verdicts.get(Verdict.NO_PATCH.value, 0)))
    parsed = r.counted - unparsed
    return RateRow(
        attempts=r.attempts,
        counted=r.counted,
        verdicts=dict(r.verdicts),
        correct=r.correct,
        plausible=r.plausible,
        correct_rate=r.correct / r.counted if r.counted else None,
        plausible_rate=r.plausible / r.counted if r.counted else None,
        correct_ci=correct_ci,
        plausible_ci=plausible_ci,
        overfit_share=r.overfit_share,
        unparsed=unparsed,
        unparsed_rate=unparsed / r.counted if r.counted else None,
        correct_rate_parsed=r.correct / parsed if parsed else None,
        correct_parsed_ci=_as_interval(getattr(r, "correct_parsed_ci", None))
        or wilson(r.correct, parsed),
    )


@dataclass
class SolverStats:
    """One solver of the report (a solver of one run, or of several runs if its label is shared)."""

    label: str
    runs: list[str]
    overall: RateRow
    by_defect_type: dict[str, RateRow]
    flags: dict[str, int]
    flagged_passes: int
    """attempts that pass the visible tests and carry at least one flag"""
    invalid_samples: list[str]
    infra_errors: list[str]
    median_judge_s: float | None
    pass_at_k: dict[str, float]
    metrics: dict[str, float] = field(default_factory=dict)
    """what the suite's task family computes (:meth:`truepass.families.base.Family.metrics`)"""
    model_attempts: int = 0
    tokens: int = 0
    cost_usd: float | None = 0.0
    """total cost; None when some attempt used a model without a known price"""
    tokens_per_attempt: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    family_options: dict[str, str] = field(default_factory=dict)
    """the family's options in force for its metrics (review: the positive class)"""
    family: str = DEFAULT_FAMILY
    """the task family of the solver's run(s)"""
    setting: SolverSetting = field(default_factory=SolverSetting)
    """the model, its settings, k and context, read from the records' ``solver_meta``"""
    process: ProcessSummary | None = None
    """agent solvers: the process metrics over their attempts (``process`` of the summary)"""

    @property
    def uses_model(self) -> bool:
        return self.model_attempts > 0

    @property
    def cost_per_attempt(self) -> float | None:
        if self.cost_usd is None or not self.overall.attempts:
            return None
        return self.cost_usd / self.overall.attempts


def solver_stats(
    attempts: list[Attempt], summaries: Mapping[str, Summary] | None = None
) -> list[SolverStats]:
    """Per-solver statistics in the order solvers first appear. ``summaries``: the summaries of
    some runs, by run name, already made from the same records (the runner's), whose solvers'
    parts are taken as they are rather than summarised again (a solver's part of a summary
    depends on its own records alone)."""
    by_label: dict[str, list[Attempt]] = defaultdict(list)
    for a in attempts:
        by_label[a.label].append(a)
    out = []
    for label, group in by_label.items():
        summary = _known(label, group, summaries or {})
        if summary is None:
            records = [
                a.record
                if a.record.solver == label
                else a.record.model_copy(update={"solver": label})
                for a in group
            ]
            family = _family(group[0].family, group[0].family_options)
            summary = summarize(records[0].suite, records, family).solvers[0]
        used = [a.record.usage for a in group if a.record.usage is not None]
        costs = [u.cost_usd for u in used]
        tokens = sum(u.prompt_tokens + u.completion_tokens for u in used)
        out.append(
            SolverStats(
                label=label,
                runs=sorted({a.run for a in group}),
                overall=rate_row(summary.overall),
                by_defect_type={t: rate_row(r) for t, r in summary.by_defect_type.items()},
                flags=summary.flags,
                flagged_passes=sum(
                    1 for a in group if a.record.flags and a.record.verdict in PASSES_VISIBLE
                ),
                invalid_samples=summary.invalid_samples,
                infra_errors=summary.infra_errors,
                median_judge_s=summary.median_judge_s,
                pass_at_k=summary.pass_at_k,
                metrics=summary.metrics,
                family_options=_options(group[0].family, group[0].family_options),
                model_attempts=len(used),
                tokens=tokens,
                cost_usd=None if any(c is None for c in costs) else sum(c or 0.0 for c in costs),
                tokens_per_attempt=tokens / len(used) if used else None,
                family=group[0].family,
                setting=solver_setting([a.record for a in group]),
                process=summary.process,
            )
        )
    return out


def _known(
    label: str, group: list[Attempt], summaries: Mapping[str, Summary]
) -> SolverSummary | None:
    """The solver's part of its run's given summary, when the label is the solver's own name in
    one run of the same family."""
    runs = {a.run for a in group}
    if len(runs) != 1 or any(a.record.solver != label for a in group):
        return None
    known = summaries.get(next(iter(runs)))
    if known is None or known.family != group[0].family:
        return None
    return next((s for s in known.solvers if s.solver == label), None)


def _family(name: str, options: dict[str, str] | None = None) -> Family | None:
    """The family of a run with the options it was made with, when this truepass knows it (its
    metrics are left out otherwise; options it does not know are left out too)."""
    try:
        family = registry.get(name)()
    except InputError:
        return None
    if options and isinstance(family, Configured):
        with contextlib.suppress(InputError):
            family.configure(options)
    return family


def _options(name: str, options: dict[str, str]) -> dict[str, str]:
    """The family options a run was judged with, its family's defaults filled in."""
    family = _family(name, options)
    return family.options() if isinstance(family, Configured) else dict(options)


def defect_types(stats: list[SolverStats]) -> list[str]:
    return sorted({t for s in stats for t in s.by_defect_type})


def verdict_order(stats: list[SolverStats]) -> list[str]:
    """Known verdicts in their canonical order, then any others that occur."""
    seen = {v for s in stats for v in s.overall.verdicts}
    return [v for v in VERDICTS if v in seen] + sorted(seen - set(VERDICTS))


def end_reasons(stats: list[SolverStats]) -> list[str]:
    """The end reasons of the agent solvers' attempts: known ones in their order, then others."""
    seen = {e for s in stats if s.process for e in s.process.ended}
    known = [e.value for e in EndReason]
    return [e for e in known if e in seen] + sorted(seen - set(known))
