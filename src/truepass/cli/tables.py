"""Readable tables of a run's summary."""

from __future__ import annotations

from rich import box
from rich.markup import escape
from rich.table import Table

from truepass.analysis.agreement import Agreement
from truepass.analysis.summary import SolverSummary, Summary
from truepass.cli.common import out_console


def rate(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def rate_ci(x: float | None, ci: list[float] | None) -> str:
    """``64.0% [50–76]``: the rate and its 95% interval in whole percent."""
    if x is None or not ci:
        return rate(x)
    return f"{100 * x:.1f}% [{100 * ci[0]:.0f}–{100 * ci[1]:.0f}]"


def print_summary(summary: Summary) -> None:
    """The verdict table, then usage (model solvers), pass@k, flags and exclusions."""
    setting = f" ({summary.setting})" if summary.setting else ""
    table = Table(title=f"truepass: {summary.suite}{setting}", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("solver", overflow="fold")
    for col in ("n", "correct", "overfit", "plaus.", "fails", "other", "correct%", "plaus.%",
                "unparsed%", "parsed: correct%"):  # fmt: skip
        table.add_column(col, justify="right", no_wrap=True)
    for s in summary.solvers:
        r = s.overall
        v = r.verdicts
        other = r.counted - r.plausible - v.get("fails-visible", 0)
        table.add_row(
            s.solver, str(r.counted), str(r.correct), str(v.get("overfit", 0)), str(r.plausible),
            str(v.get("fails-visible", 0)), str(other), rate_ci(r.correct_rate, r.correct_ci),
            rate_ci(r.plausible_rate, r.plausible_ci), rate(r.unparsed_rate),
            rate_ci(r.correct_rate_parsed, r.correct_parsed_ci),
        )  # fmt: skip
    out_console.print(table)
    out_console.print(
        "n: attempts counted (invalid samples and infra errors excluded); plaus.: passes the "
        "visible tests (correct + overfit + plausible); other: broken, timeout, apply-failed, "
        "no-patch; unparsed: no-patch (no answer could be parsed); parsed: correct%: over "
        "parsed answers, parse failures left out (seed 001's rate); \\[low–high]: 95% Wilson "
        "interval",
        style="dim",
    )
    _print_headline(summary)
    _print_metrics(summary)
    _print_process(summary)
    _print_usage(summary)
    _print_patches(summary)
    if summary.review is not None:
        print_agreement(summary.review)
    for s in summary.solvers:
        if len(s.pass_at_k) > 1 or s.pass_at_k_visible != s.pass_at_k:
            out_console.print(f"{s.solver}: {_pass_at_k(s)}")
        if s.overall.flagged_correct:
            out_console.print(f"{s.solver}: {s.overall.flagged_correct} correct verdicts carry a "
                              "fake-fix flag and are not counted as correct")  # fmt: skip
        if s.demoted_by_differential:
            out_console.print(f"{s.solver}: the differential check demoted "
                              f"{s.demoted_by_differential} test-passing patch(es) "
                              "(differs-from-reference)")  # fmt: skip
        if s.flags:
            flags = ", ".join(f"{k} {n}" for k, n in s.flags.items())
            out_console.print(f"{s.solver} flags: {flags}")
        if s.invalid_samples:
            out_console.print(f"{s.solver}: {len(s.invalid_samples)} invalid samples excluded: "
                              f"{', '.join(s.invalid_samples[:10])}")  # fmt: skip
        if s.infra_errors:
            out_console.print(f"[yellow]{s.solver}: {len(s.infra_errors)} infra errors (not "
                              "counted; rerun the same command to retry them)[/]")  # fmt: skip


def _headline_names(summary: Summary) -> list[str]:
    """The family's headline metrics (:func:`~truepass.families.capabilities.headline_metrics`)
    that some solver has; none for a family this truepass does not know."""
    from truepass.errors import InputError
    from truepass.families import registry
    from truepass.families.capabilities import headline_metrics

    try:
        declared = headline_metrics(registry.get(summary.family)())
    except InputError:
        return []
    return [n for n in declared if any(n in s.metrics for s in summary.solvers)]


def _metric_cell(s: SolverSummary, name: str) -> str:
    """``0.953 [0.927–0.977]``: a metric with its interval when known, ``-`` when absent."""
    value, low = s.metrics.get(name), s.metrics.get(f"{name}_ci_low")
    text = "-" if value is None else f"{value:.3g}"
    if value is not None and low is not None:
        text += f" [{low:.3g}–{s.metrics[f'{name}_ci_high']:.3g}]"
    return text


def _print_headline(summary: Summary) -> None:
    """The family's headline metrics, one row per solver, as the verdict table has them
    (repair: the similarity to the reference fix, the exact-match rate, the composite scores)."""
    names = _headline_names(summary)
    if not names:
        return
    table = Table(title=f"{summary.family}: headline metrics", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("solver", overflow="fold")
    for name in names:
        table.add_column(escape(name), justify="right", overflow="fold")
    for s in summary.solvers:
        table.add_row(escape(s.solver), *(_metric_cell(s, n) for n in names))
    out_console.print(table)
    out_console.print(
        "\\[low–high]: 95% bootstrap interval over attempts; every metric is in summary.json "
        "and the report (docs/metrics.md)",
        style="dim",
    )


def _print_metrics(summary: Summary) -> None:
    """The family's own metrics (e.g. BLEU of summaries), each with its interval when known."""
    names = [
        k
        for k in dict.fromkeys(k for s in summary.solvers for k in s.metrics)
        if not k.endswith(("_ci_low", "_ci_high"))
    ]
    if not names:
        return
    # one row per metric, one column per solver: a family may have a dozen metrics
    table = Table(title=f"{summary.family} metrics", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("metric", no_wrap=True)
    for s in summary.solvers:
        table.add_column(escape(s.solver), justify="right", overflow="fold")
    for name in names:
        table.add_row(escape(name), *(_metric_cell(s, name) for s in summary.solvers))
    out_console.print(table)
    note = "\\[low–high]: 95% bootstrap interval over attempts"
    if summary.family_options:
        chosen = ", ".join(f"{k}={v}" for k, v in summary.family_options.items())
        note += f"; {summary.family} options: {chosen}"
        if "positive" in summary.family_options:
            note += " (positive: the positive class of precision, recall and F1)"
    out_console.print(note, style="dim")


def _print_process(summary: Summary) -> None:
    """How the agent solvers went about it (``process`` in summary.json; docs/agents.md)."""
    agents = [(s.solver, s.process) for s in summary.solvers if s.process is not None]
    if not agents:
        return
    table = Table(title="agent process", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("solver", overflow="fold", min_width=min(24, max(len(n) for n, _ in agents)))
    for col in ("n", "steps", "edits", "test runs", "tokens", "tested", "ended"):
        table.add_column(col, justify="right" if col != "ended" else "left")
    for name, p in agents:
        ended = ", ".join(f"{reason} {share:.0%}" for reason, share in p.ended.items())
        table.add_row(
            escape(name), str(p.attempts), f"{p.steps:.1f}", f"{p.edits:.1f}",
            f"{p.test_runs:.1f}", f"{p.tokens:.0f}", f"{p.ran_tests_before_finish:.0%}",
            escape(ended),
        )  # fmt: skip
    out_console.print(table)
    out_console.print(
        "means per attempt; tested: share that ran the tests before finishing; ended: share of "
        "attempts per end reason",
        style="dim",
    )


def _pass_at_k(s: SolverSummary) -> str:
    """``pass@1 0.750 [0.62–0.86] (visible only 0.900)``: correct, then visible tests only."""
    parts = []
    for key, value in s.pass_at_k.items():
        ci = s.pass_at_k_ci.get(key)
        text = f"{key} {value:.3f}" + (f" [{ci[0]:.2f}–{ci[1]:.2f}]" if ci else "")
        visible = s.pass_at_k_visible.get(key)
        if visible is not None and visible != value:
            vci = s.pass_at_k_visible_ci.get(key)
            text += f" (visible only {visible:.3f}"
            text += f" [{vci[0]:.2f}–{vci[1]:.2f}])" if vci else ")"
        parts.append(text)
    return ", ".join(parts)


def _print_usage(summary: Summary) -> None:
    rows = [s for s in summary.solvers if s.usage is not None]
    if not rows:
        return
    table = Table(title="model usage", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("solver", overflow="fold")
    for col in ("calls", "cached", "tok/attempt", "tok/s", "cost $", "parsed%"):
        table.add_column(col, justify="right", no_wrap=True)
    for s in rows:
        u = s.usage
        assert u is not None
        table.add_row(
            s.solver, str(u.calls), str(u.cached_calls), f"{u.tokens_per_attempt:.0f}",
            "-" if u.completion_tokens_per_s is None else f"{u.completion_tokens_per_s:.1f}",
            "?" if u.cost_usd is None else f"{u.cost_usd:.4f}", rate(u.parse_success_rate),
        )  # fmt: skip
    out_console.print(table)


def _print_patches(summary: Summary) -> None:
    rows = [s for s in summary.solvers if s.patches is not None and s.solver != "oracle"]
    if not rows:
        return
    table = Table(title="patches", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("solver", overflow="fold")
    for col in ("changed", "hit@file", "hit@func", "hit@line", "in fault fn", "lines",
                "+lint", "regress."):  # fmt: skip
        table.add_column(col, justify="right", no_wrap=True)
    for s in rows:
        p = s.patches
        assert p is not None
        table.add_row(
            s.solver, str(p.changed), rate(p.hit_file), rate(p.hit_function),
            rate(p.hit_line), rate(p.inside_fault_function),
            "-" if p.mean_lines_changed is None else f"{p.mean_lines_changed:.1f}",
            str(p.adding_lint), str(p.with_regressions),
        )  # fmt: skip
    out_console.print(table)


def print_agreement(found: Agreement) -> None:
    """The human review's agreement with truepass's verdicts: the confusion matrix, kappa and
    the disagreements."""
    table = Table(title="human review: truepass (rows) against the reviewer (columns)",
                  box=box.SIMPLE_HEAD, pad_edge=False)  # fmt: skip
    table.add_column("truepass \\ reviewer")
    for c in found.classes:
        table.add_column(str(c), justify="right")
    for c, row in zip(found.classes, found.confusion, strict=True):
        table.add_row(str(c), *(str(n) for n in row))
    out_console.print(table)
    kappa = "n/a" if found.kappa is None else f"{found.kappa:.3f}"
    ci = f" [{found.kappa_ci[0]:.3f}–{found.kappa_ci[1]:.3f}]" if found.kappa_ci else ""
    observed = "n/a" if found.observed is None else f"{100 * found.observed:.1f}%"
    out_console.print(
        f"labelled {found.labelled}, unsure {found.unsure} (left out), compared "
        f"{found.compared}; agreement {observed}; Cohen's kappa {kappa}{ci} (95% bootstrap)",
        highlight=False,
    )
    for d in found.disagreements:
        note = f": {escape(d.note)}" if d.note else ""
        out_console.print(f"  {escape(d.key)}: truepass {d.truepass} ({d.verdict}), reviewer "
                          f"{d.reviewer}{note}", highlight=False)  # fmt: skip
