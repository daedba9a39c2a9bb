"""Charts of the report as inline SVG, drawn here so that the page needs no script library.

Every text that reaches the SVG goes through :func:`markupsafe.escape`: solver names and defect
types come from files a user (or a candidate) may have written.
"""

from __future__ import annotations

import math

from markupsafe import Markup, escape

from truepass.report.curves import CORRECT_RATE, Estimate, FamilyCurves
from truepass.report.stats import RateRow, SolverStats, defect_types, verdict_order

WIDTH = 600
FONT = 12
CHAR_W = 6.8  # rough width of a character at FONT px, to size label columns

VERDICT_COLOURS = {
    "correct": "#2e7d32",
    "plausible": "#8bc34a",
    "overfit": "#f2a900",
    "partial": "#f6c85f",
    "fails-visible": "#e0533d",
    "broken": "#8e44ad",
    "apply-failed": "#8d6e63",
    "no-patch": "#a7adb3",
    "timeout": "#ef8a17",
    "scored": "#4e79a7",
    "invalid-sample": "#d8dee4",
    "infra-error": "#3d4852",
}
SOLVER_COLOURS = [
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
]


def solver_colour(i: int) -> str:
    return SOLVER_COLOURS[i % len(SOLVER_COLOURS)]


def verdict_colour(verdict: str) -> str:
    return VERDICT_COLOURS.get(verdict, "#607d8b")


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _attrs(attrs: dict[str, object]) -> str:
    return "".join(
        f' {k.rstrip("_").replace("_", "-")}="{escape(_f(v) if isinstance(v, float) else str(v))}"'
        for k, v in attrs.items()
        if v is not None
    )


def _el(tag: str, text: str | None = None, *, title: str | None = None, **attrs: object) -> str:
    inner = f"<title>{escape(title)}</title>" if title else ""
    if text is not None:
        inner += str(escape(text))
    if not inner:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{inner}</{tag}>"


def _short(text: str, width: float) -> str:
    n = max(4, int(width / CHAR_W))
    return text if len(text) <= n else text[: n - 1] + "…"


def _label_width(labels: list[str]) -> float:
    longest = max((len(x) for x in labels), default=8)
    return min(200.0, max(80.0, longest * CHAR_W + 16))


def _svg(height: float, body: list[str], label: str, width: float = WIDTH) -> Markup:
    return Markup(
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} '
        f'{_f(height)}" width="{_f(width)}" height="{_f(height)}" role="img" '
        f'aria-label="{escape(label)}" font-size="{FONT}">' + "".join(body) + "</svg>"
    )


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _x_axis(
    x0: float, x1: float, y_top: float, y_bottom: float, ticks: list[tuple[float, str]]
) -> list[str]:
    out = []
    for frac, text in ticks:
        out += _x_tick(x0 + frac * (x1 - x0), text, y_top, y_bottom)
    return out


def _x_tick(x: float, text: str, y_top: float, y_bottom: float) -> list[str]:
    """A vertical grid line at ``x`` with its value below the plot."""
    return [
        _el("line", x1=x, x2=x, y1=y_top, y2=y_bottom, class_="grid"),
        _el("text", text, x=x, y=y_bottom + 14, text_anchor="middle", class_="axis"),
    ]


def _y_tick(y: float, text: str, x_left: float, x_right: float) -> list[str]:
    """A horizontal grid line at ``y`` with its value left of the plot."""
    return [
        _el("line", x1=x_left, x2=x_right, y1=y, y2=y, class_="grid"),
        _el("text", text, x=x_left - 6, y=y + 4, text_anchor="end", class_="axis"),
    ]


def _axis_titles(
    x_title: str, y_title: str, left: float, right: float, top: float, bottom: float
) -> list[str]:
    """The x axis's title below its values, the y axis's turned upright at the left edge."""
    mid = (top + bottom) / 2
    return [
        _el(
            "text",
            x_title,
            x=(left + right) / 2,
            y=bottom + 32,
            text_anchor="middle",
            class_="axis-title",
        ),
        _el(
            "text",
            y_title,
            x=14,
            y=mid,
            text_anchor="middle",
            class_="axis-title",
            transform=f"rotate(-90 14 {_f(mid)})",
        ),
    ]


def _row_label(label: str, left: float, y: float) -> str:
    """A row's label, right-aligned before the plot area (shortened; in full as its tooltip)."""
    return _el(
        "text",
        _short(label, left - 12),
        x=left - 8,
        y=y,
        text_anchor="end",
        class_="label",
        title=label,
    )


PCT_TICKS = [(i / 4, f"{25 * i}%") for i in range(5)]


def _legend(
    items: list[tuple[str, str]], x0: float, y: float, width: float
) -> tuple[list[str], float]:
    """Swatches left to right, wrapping; returns the elements and the height used."""
    out, x, line = [], x0, 0
    for name, colour in items:
        w = 18 + len(name) * CHAR_W + 14
        if x + w > width and x > x0:
            x, line = x0, line + 1
        yy = y + line * 18
        out.append(_el("rect", x=x, y=yy - 9, width=10, height=10, rx=2, fill=colour))
        out.append(_el("text", name, x=x + 14, y=yy, class_="legend"))
        x += w
    return out, (line + 1) * 18 if items else 0


def verdict_chart(stats: list[SolverStats]) -> Markup:
    """Stacked horizontal bars: each solver's attempts split by verdict (share of all attempts)."""
    verdicts = verdict_order(stats)
    left = _label_width([s.label for s in stats])
    right = WIDTH - 16
    legend, lh = _legend([(v, verdict_colour(v)) for v in verdicts], left, 14, right)
    top, row = 14 + lh + 4, 28
    body = list(legend)
    bottom = top + row * len(stats)
    body += _x_axis(left, right, top - 4, bottom, PCT_TICKS)
    for i, s in enumerate(stats):
        y = top + i * row
        body.append(_row_label(s.label, left, y + 17))
        total = s.overall.attempts or 1
        x = left
        for v in verdicts:
            n = s.overall.verdicts.get(v, 0)
            if not n:
                continue
            w = (right - left) * n / total
            body.append(
                _el(
                    "rect",
                    x=x,
                    y=y + 4,
                    width=w,
                    height=row - 8,
                    fill=verdict_colour(v),
                    class_="seg",
                    title=f"{s.label}: {v} {n} of {s.overall.attempts}",
                )
            )
            if w >= 8 + len(str(n)) * CHAR_W:
                dark = v in {"plausible", "overfit", "invalid-sample", "no-patch", "timeout"}
                body.append(
                    _el(
                        "text",
                        str(n),
                        x=x + w / 2,
                        y=y + 18,
                        text_anchor="middle",
                        class_="in-bar dark" if dark else "in-bar",
                    )
                )
            x += w
    return _svg(bottom + 22, body, "Verdicts per solver")


def _ci_whisker(x_lo: float, x_hi: float, y: float, cls: str = "ci") -> list[str]:
    return [
        _el("line", x1=x_lo, x2=x_hi, y1=y, y2=y, class_=cls),
        _el("line", x1=x_lo, x2=x_lo, y1=y - 4, y2=y + 4, class_=cls),
        _el("line", x1=x_hi, x2=x_hi, y1=y - 4, y2=y + 4, class_=cls),
    ]


def defect_chart(stats: list[SolverStats]) -> Markup:
    """Grouped horizontal bars: correct rate per defect type, one bar per solver, 95% intervals."""
    types = defect_types(stats)
    left = _label_width(types)
    right = WIDTH - 56
    legend, lh = _legend(
        [(s.label, solver_colour(i)) for i, s in enumerate(stats)], left, 14, WIDTH - 16
    )
    bar, gap = 14, 12
    top = 14 + lh + 4
    body = list(legend)
    group_h = bar * len(stats) + gap
    bottom = top + group_h * len(types)
    body += _x_axis(left, right, top - 4, bottom, PCT_TICKS)
    for g, t in enumerate(types):
        y0 = top + g * group_h
        body.append(_row_label(t, left, y0 + bar * len(stats) / 2 + 4))
        for i, s in enumerate(stats):
            y = y0 + i * bar
            r: RateRow | None = s.by_defect_type.get(t)
            if r is None or r.correct_rate is None:
                why = "no attempts" if r is None else "no counted attempts"
                body.append(_el("text", why, x=left + 4, y=y + 11, class_="note"))
                continue
            w = (right - left) * r.correct_rate
            tip = f"{s.label} on {t}: {r.correct}/{r.counted} correct ({_pct(r.correct_rate)})"
            if r.correct_ci:
                tip += f", 95% CI {_pct(r.correct_ci[0])}–{_pct(r.correct_ci[1])}"
            body.append(
                _el(
                    "rect",
                    x=left,
                    y=y + 1,
                    width=max(w, 1.5),
                    height=bar - 2,
                    fill=solver_colour(i),
                    class_="bar",
                    title=tip,
                )
            )
            if r.correct_ci:
                lo, hi = (left + (right - left) * c for c in r.correct_ci)
                body += _ci_whisker(lo, hi, y + bar / 2)
            body.append(
                _el("text", f"{r.correct}/{r.counted}", x=right + 6, y=y + 11, class_="note")
            )
    return _svg(bottom + 22, body, "Correct rate per defect type")


def gap_chart(stats: list[SolverStats]) -> Markup:
    """Dumbbells: each solver's correct rate and plausible rate, and the gap between them."""
    left = _label_width([s.label for s in stats])
    right = WIDTH - 90
    legend, lh = _legend(
        [
            ("correct rate", VERDICT_COLOURS["correct"]),
            ("plausible rate (passes visible tests)", VERDICT_COLOURS["overfit"]),
        ],
        left,
        14,
        WIDTH - 16,
    )
    top, row = 14 + lh + 4, 28
    bottom = top + row * len(stats)
    body = list(legend) + _x_axis(left, right, top - 4, bottom, PCT_TICKS)
    for i, s in enumerate(stats):
        y = top + i * row + row / 2
        body.append(_row_label(s.label, left, y + 4))
        r = s.overall
        if r.correct_rate is None or r.plausible_rate is None:
            body.append(_el("text", "no counted attempts", x=left + 4, y=y + 4, class_="note"))
            continue
        xc = left + (right - left) * r.correct_rate
        xp = left + (right - left) * r.plausible_rate
        body.append(_el("line", x1=xc, x2=xp, y1=y, y2=y, class_="gap"))
        for what, x, rate, colour in (
            ("plausible", xp, r.plausible_rate, VERDICT_COLOURS["overfit"]),
            ("correct", xc, r.correct_rate, VERDICT_COLOURS["correct"]),
        ):
            title = f"{s.label}: {what} {_pct(rate)}"
            body.append(_el("circle", cx=x, cy=y, r=6, fill=colour, title=title))
        gap = 100 * (r.plausible_rate - r.correct_rate)
        body.append(_el("text", f"gap {gap:.1f} pts", x=right + 10, y=y + 4, class_="note"))
    return _svg(bottom + 22, body, "Plausible versus correct rate per solver")


def _nice_ceil(x: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that is at least ``x`` (1 for 0)."""
    if x <= 0:
        return 1.0
    base = 10 ** math.floor(math.log10(x))
    return next(f * base for f in (1, 2, 2.5, 5, 10) if x <= f * base * (1 + 1e-9))


def cost_chart(stats: list[SolverStats]) -> tuple[Markup, str]:
    """Scatter of correct rate against cost per attempt (tokens per attempt when no solver has a
    price). Returns the chart and a note naming what the x axis shows and what is left out."""
    priced = [s for s in stats if s.cost_per_attempt is not None]
    use_cost = any((s.cost_per_attempt or 0) > 0 for s in priced)
    if use_cost:
        points = [
            (i, s, s.cost_per_attempt or 0.0)
            for i, s in enumerate(stats)
            if s.cost_per_attempt is not None
        ]
        axis = "cost per attempt (USD)"
    else:
        points = [(i, s, s.tokens_per_attempt or 0.0) for i, s in enumerate(stats)]
        axis = "tokens per attempt (no solver here has a price)"
    missing = [s.label for s in stats if use_cost and s.cost_per_attempt is None]
    note = "Solvers that call no model sit at 0."
    if missing:
        note += " Left out, cost unknown (a model without a price): " + ", ".join(missing) + "."
    left, right, top, bottom = 56.0, WIDTH - 170.0, 16.0, 236.0
    xmax = _nice_ceil(max((x for _, _, x in points), default=0.0))
    body: list[str] = []
    for k in range(5):
        body += _y_tick(bottom - (bottom - top) * k / 4, f"{25 * k}%", left, right)
        body += _x_tick(left + (right - left) * k / 4, f"{xmax * k / 4:.3g}", top, bottom)
    body += _axis_titles(axis, "correct rate", left, right, top, bottom)
    for n, (i, s, xv) in enumerate(points):
        r = s.overall
        if r.correct_rate is None:
            continue
        x = left + (right - left) * xv / xmax
        y = bottom - (bottom - top) * r.correct_rate
        if r.correct_ci:
            y_lo, y_hi = (bottom - (bottom - top) * c for c in r.correct_ci)
            body.append(_el("line", x1=x, x2=x, y1=y_lo, y2=y_hi, class_="ci"))
        tip = f"{s.label}: correct {_pct(r.correct_rate)}, {axis.split(' (')[0]} {xv:.4g}"
        body.append(
            _el("circle", cx=x, cy=y, r=6, fill=solver_colour(i), title=tip, class_="point")
        )
        body.append(
            _el(
                "text",
                _short(s.label, 150),
                x=right + 16,
                y=top + 10 + 18 * n,
                class_="legend",
                title=s.label,
            )
        )
        body.append(_el("circle", cx=right + 8, cy=top + 6 + 18 * n, r=5, fill=solver_colour(i)))
    return _svg(bottom + 42, body, "Correct rate against cost"), note


def metric_value(metric: str, x: float | None) -> str:
    """A metric's value as shown: rates in percent, small scores to three decimals."""
    if x is None:
        return "n/a"
    if metric == CORRECT_RATE:
        return _pct(x)
    return f"{x:.3f}" if abs(x) < 10 else f"{x:.1f}"


def estimate_text(metric: str, e: Estimate | None) -> str:
    """``0.412 [0.301–0.530]``: the value and its 95% interval (the value alone without one)."""
    if e is None:
        return "n/a"
    out = metric_value(metric, e.value)
    if e.low is not None and e.high is not None:
        out += f" [{metric_value(metric, e.low)}–{metric_value(metric, e.high)}]"
    return out


def curve_chart(fc: FamilyCurves, metric: str) -> Markup:
    """One metric against k: a line per curve (model and settings, context type), its 95%
    intervals as a shaded band and whiskers; points without the metric are left out."""
    curves = fc.curves
    left, right = 64.0, WIDTH - 16.0
    legend, lh = _legend(
        [(_short(c.label, 260), solver_colour(i)) for i, c in enumerate(curves)], left, 14, right
    )
    top = 14 + lh + 8
    bottom = top + 210.0
    ks = sorted({p.k for c in curves for p in c.points})
    k_lo, k_hi = ks[0], ks[-1]
    pad = 28.0
    span = max(k_hi - k_lo, 1)

    def x_of(k: float) -> float:
        return left + pad + (right - left - 2 * pad) * (k - k_lo) / span

    tops = [
        e.high if e.high is not None else e.value
        for c in curves
        for p in c.points
        if (e := p.metrics.get(metric)) is not None
    ]
    y_max = 1.0 if metric == CORRECT_RATE else _nice_ceil(max(tops, default=0.0))

    def y_of(v: float) -> float:
        return bottom - (bottom - top) * min(max(v / y_max, 0.0), 1.0)

    body = list(legend)
    for i in range(5):
        v = y_max * i / 4
        body += _y_tick(y_of(v), metric_value(metric, v), left, right)
    for k in ks:
        body += _x_tick(x_of(k), str(k), top, bottom)
    body += _axis_titles("k (demonstrations per prompt)", metric, left, right, top, bottom)
    n = len(curves)
    for i, c in enumerate(curves):
        colour = solver_colour(i)
        shift = (i - (n - 1) / 2) * min(6.0, 24.0 / n)  # keeps whiskers of equal k apart
        pts = [(p, e) for p in c.points if (e := p.metrics.get(metric)) is not None]
        if len(pts) >= 2 and all(e.low is not None and e.high is not None for _, e in pts):
            upper = [f"{_f(x_of(p.k) + shift)},{_f(y_of(e.high or 0.0))}" for p, e in pts]
            lower = [f"{_f(x_of(p.k) + shift)},{_f(y_of(e.low or 0.0))}" for p, e in pts]
            body.append(
                _el("polygon", points=" ".join(upper + lower[::-1]), fill=colour, class_="band")
            )
        if len(pts) >= 2:
            line = " ".join(f"{_f(x_of(p.k) + shift)},{_f(y_of(e.value))}" for p, e in pts)
            body.append(_el("polyline", points=line, stroke=colour, class_="curve"))
        for p, e in pts:
            x, y = x_of(p.k) + shift, y_of(e.value)
            if e.low is not None and e.high is not None:
                y_lo, y_hi = y_of(e.low), y_of(e.high)
                body += [
                    _el("line", x1=x, x2=x, y1=y_lo, y2=y_hi, stroke=colour, class_="ci-k"),
                    _el("line", x1=x - 3, x2=x + 3, y1=y_lo, y2=y_lo, stroke=colour, class_="ci-k"),
                    _el("line", x1=x - 3, x2=x + 3, y1=y_hi, y2=y_hi, stroke=colour, class_="ci-k"),
                ]
            tip = (
                f"{c.label}, k={p.k}: {metric} {estimate_text(metric, e)}"
                f" ({p.solver}; {p.counted} counted attempts)"
            )
            body.append(
                _el(
                    "circle",
                    cx=x,
                    cy=y,
                    r=4.5,
                    fill=colour,
                    title=tip,
                    class_="point k-point",
                    data_k=p.k,
                    data_value=f"{e.value:g}",
                )
            )
    return _svg(bottom + 42, body, f"{fc.family}: {metric} against k")
