"""Metric-versus-k curves: solvers that differ only in k (demonstrations per prompt) form a line.

A solver's k and context type come from its records (:mod:`truepass.report.demonstrations`),
never from its name. A *line* is one family, one model with all its settings but k
(:attr:`SolverSetting.base`), one context type (and retrieval method, when the records say it);
its points are the line's solvers, one per k. A
k = 0 solver shows no demonstrations, so its context does not matter: when a line has no k = 0
point of its own, the k = 0 solver of the same model and settings is its first point (a
solver whose records carry no demonstrations at all counts as such a k = 0 solver). Two solvers
of one line with the same k (the same solver in two runs) split the line by run; solvers that
still share a k (their records do not tell them apart) are left out, and named. Only lines with
at least two values of k are curves; a report without any shows none.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from truepass.report.stats import SolverStats

CORRECT_RATE = "correct_rate"
"""the metric of solvers whose family computes none of its own: the correct rate (Wilson CI)"""


@dataclass(frozen=True)
class Estimate:
    """A metric's value with its 95% interval (None when the family computes none for it)."""

    value: float
    low: float | None = None
    high: float | None = None


def _charted(family: str) -> bool:
    """Whether ``family`` charts metrics of its own (the ``Charted`` capability) rather than
    the correct rate (a family this truepass does not know: no)."""
    from truepass.errors import InputError
    from truepass.families import registry
    from truepass.families.capabilities import Charted

    try:
        return isinstance(registry.get(family)(), Charted)
    except InputError:
        return False


def _rate(s: SolverStats) -> dict[str, Estimate]:
    r = s.overall
    if r.correct_rate is None:
        return {}
    low, high = r.correct_ci or (None, None)
    return {CORRECT_RATE: Estimate(r.correct_rate, low, high)}


def solver_metrics(s: SolverStats) -> dict[str, Estimate]:
    """A solver's metrics: its family's (``NAME`` with ``NAME_ci_low``/``NAME_ci_high`` folded
    into one :class:`Estimate`), after its correct rate with the Wilson interval unless the
    family charts metrics of its own (label and text families); the correct rate alone when the
    family has no metrics."""
    if s.metrics:
        out: dict[str, Estimate] = {} if _charted(s.family) else _rate(s)
        for name, value in s.metrics.items():
            if name.endswith(("_ci_low", "_ci_high")) and (
                name.removesuffix("_ci_low") in s.metrics
                or name.removesuffix("_ci_high") in s.metrics
            ):
                continue
            low = s.metrics.get(f"{name}_ci_low")
            high = s.metrics.get(f"{name}_ci_high")
            out[name] = Estimate(float(value), low, high)
        return out
    return _rate(s)


@dataclass
class CurvePoint:
    k: int
    solver: str
    """the solver's label in the report"""
    counted: int
    metrics: dict[str, Estimate]


@dataclass
class Curve:
    """One line: a model with its settings and one context type, over k."""

    family: str
    base: str
    """the model with its settings but k and context (:attr:`SolverSetting.base`)"""
    context: str | None
    retrieval: str | None = None
    runs: str = ""
    """the run(s) the line comes from, when the same solver in two runs had to be kept apart"""
    points: list[CurvePoint] = field(default_factory=list)

    @property
    def label(self) -> str:
        out = self.base + "".join(f" · {x}" for x in (self.context, self.retrieval) if x)
        return out + (f" ({self.runs})" if self.runs else "")

    @property
    def ks(self) -> list[int]:
        return [p.k for p in self.points]


@dataclass
class FamilyCurves:
    """The curves of one family and the metrics charted for it."""

    family: str
    metrics: list[str]
    curves: list[Curve]
    left_out: list[str] = field(default_factory=list)
    """solvers that share model, settings, context and k with another solver of their run"""

    def without_interval(self, metric: str) -> bool:
        """Whether some point of these curves has ``metric`` without an interval (the family
        computes none for it)."""
        return any(
            e.low is None or e.high is None
            for c in self.curves
            for p in c.points
            if (e := p.metrics.get(metric)) is not None
        )


def _point(s: SolverStats) -> CurvePoint:
    return CurvePoint(
        k=s.setting.k, solver=s.label, counted=s.overall.counted, metrics=solver_metrics(s)
    )


def _split(
    group: list[SolverStats],
) -> tuple[list[tuple[str, list[SolverStats]]], list[SolverStats]]:
    """One line, or one per run when a k repeats; solvers whose k still repeats are left out
    (second value)."""
    ks = Counter(s.setting.k for s in group)
    if max(ks.values()) == 1:
        return [("", group)], []
    by_runs: dict[str, list[SolverStats]] = defaultdict(list)
    for s in group:
        by_runs[";".join(s.runs)].append(s)
    lines: list[tuple[str, list[SolverStats]]] = []
    left_out: list[SolverStats] = []
    for runs, members in by_runs.items():
        ks = Counter(s.setting.k for s in members)
        lines.append((runs, [s for s in members if ks[s.setting.k] == 1]))
        left_out += [s for s in members if ks[s.setting.k] > 1]
    return [(runs, m) for runs, m in lines if m], left_out


def charted_metrics(curves: list[Curve], family: str) -> list[str]:
    """The metrics to chart for these curves: the family's main metrics
    (:attr:`truepass.families.capabilities.Charted.main_metrics`) that the curves hold, else the
    correct
    rate, else every metric that carries an interval (all of them when none carries one)."""
    from truepass.errors import InputError
    from truepass.families import registry
    from truepass.families.capabilities import Charted

    seen: dict[str, bool] = {}
    for c in curves:
        for p in c.points:
            for name, e in p.metrics.items():
                seen[name] = seen.get(name, False) or e.low is not None
    try:
        known = registry.get(family)()
        declared = known.main_metrics if isinstance(known, Charted) else ()
    except InputError:  # a family this truepass does not know
        declared = ()
    main = [m for m in (*declared, CORRECT_RATE) if m in seen]
    return main or [m for m in seen if seen[m]] or list(seen)


def sweep_curves(stats: list[SolverStats]) -> list[FamilyCurves]:
    """The metric-versus-k curves of a report's solvers, per family in order of appearance;
    empty when no solvers form a sweep (two or more values of k on one line) and none had to be
    left out."""
    groups: dict[tuple[str, str, str | None, str | None], list[SolverStats]] = defaultdict(list)
    for s in stats:
        st = s.setting
        if st.base is not None:
            groups[(s.family, st.base, st.context, st.retrieval)].append(s)
    lines: list[tuple[Curve, list[SolverStats]]] = []
    left_out: dict[str, list[str]] = defaultdict(list)
    for (family, base, context, retrieval), group in groups.items():
        split, ambiguous = _split(group)
        left_out[family] += [s.label for s in ambiguous]
        for runs, members in split:
            lines.append((Curve(family, base, context, retrieval, runs), members))
    # a line without a k = 0 point of its own takes the k = 0 solver of its model and settings
    ambiguous = {name for names in left_out.values() for name in names}
    zeros = [
        s
        for s in stats
        if s.setting.base is not None and s.setting.k == 0 and s.label not in ambiguous
    ]
    out: dict[str, list[Curve]] = defaultdict(list)
    for curve, members in lines:
        if len(members) == 1 and members[0].setting.k == 0:
            continue
        points = [_point(s) for s in members]
        if 0 not in {p.k for p in points}:
            runs = {r for s in members for r in s.runs}
            same = [z for z in zeros if (z.family, z.setting.base) == (curve.family, curve.base)]
            # rather one of the same run, then one of the same context
            same.sort(key=lambda z: (not runs & set(z.runs), z.setting.context != curve.context))
            if same:
                points.append(_point(same[0]))
        curve.points = sorted(points, key=lambda p: p.k)
        if len(set(curve.ks)) >= 2:
            out[curve.family].append(curve)
    return [
        FamilyCurves(
            family=family,
            metrics=charted_metrics(out[family], family),
            curves=out[family],
            left_out=left_out[family],
        )
        for family in dict.fromkeys([*out, *(f for f, names in left_out.items() if names)])
    ]
