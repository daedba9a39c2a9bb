"""``truepass compare RUN_A RUN_B [...]``: paired statistics between solvers and runs."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from truepass.cli.common import errors, out_console
from truepass.cli.tables import rate_ci

if TYPE_CHECKING:  # the statistics load when the command runs
    from truepass.analysis.compare import (
        Comparison,
        Excluded,
        GroupComparison,
        LanguageComparison,
        TierContrast,
    )


class MetricChoice(StrEnum):
    correct = "correct"
    plausible = "plausible"


def compare_cmd(
    runs: Annotated[
        list[Path],
        typer.Argument(
            metavar="RUN", help="Run directories (or their results.jsonl); a solver is an arm."
        ),
    ],
    metric: Annotated[
        MetricChoice,
        typer.Option(help="Success for rates and differences (McNemar is shown for both)."),
    ] = MetricChoice.correct,
    bootstrap: Annotated[
        int, typer.Option(min=1, help="Paired-bootstrap resamples per interval.")
    ] = 10_000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed (recorded in the JSON).")] = 0,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the full comparison as JSON.")
    ] = None,
) -> None:
    """Compare solvers sample by sample: rates with intervals, McNemar, effect size, leakage.

    Pairs samples valid in both arms (runs in two languages: by program); Holm-adjusts p-values
    over several pairs. See docs/compare.md.
    """
    with errors():
        from truepass.analysis.compare import compare_runs

        result = compare_runs(runs, metric=metric.value, bootstrap=bootstrap, seed=seed)
    print_comparison(result)
    if json_out is not None:
        json_out.write_text(result.model_dump_json(indent=2) + "\n", encoding="utf-8")
        out_console.print(f"wrote {escape(str(json_out))}", style="dim")


FEW_DISCORDANT = 10  # below this the percentile bootstrap interval is too narrow (docs)


def _diff(x: float | None, ci: list[float] | None, discordant: int) -> str:
    if x is None:
        return "-"
    text = f"{100 * x:+.1f}"
    text = text if not ci else f"{text} [{100 * ci[0]:+.0f}, {100 * ci[1]:+.0f}]"
    return text + ("†" if ci and discordant < FEW_DISCORDANT else " ")


def _p(p: float) -> str:
    return f"{p:.2g}" if p < 0.001 else f"{p:.3f}"


def _g(g: float | None) -> str:
    return "-" if g is None else f"{g:.2f}"


def _columns(table: Table, first: str, metric: str, other: str, several: bool) -> None:
    table.add_column(first, overflow="fold")
    table.add_column("n", justify="right", no_wrap=True)
    cols = ["A", "B", "A−B [95% CI]", "A/B only", "p"]
    cols += ["Holm p"] if several else []
    cols += ["g", f"{other[:5]}. p"]
    for col in cols:
        table.add_column(col, justify="right", no_wrap=True)


def _cells(g: GroupComparison, metric: str, other: str, several: bool) -> list[str]:
    t, o = getattr(g, metric), getattr(g, other)
    cells = [
        str(g.n), rate_ci(g.rate_a, g.rate_a_ci), rate_ci(g.rate_b, g.rate_b_ci),
        _diff(g.difference, g.difference_ci, t.a_only + t.b_only), f"{t.a_only}/{t.b_only}",
        _p(t.p_value),
    ]  # fmt: skip
    cells += [_p(t.p_holm)] if several else []
    return [*cells, _g(t.cohens_g), _p(o.p_value)]


def print_comparison(c: Comparison) -> None:
    """Headline per pair, then per defect type and leakage tier, leakage probes, exclusions."""
    metric = c.metric
    other = "plausible" if metric == "correct" else "correct"
    several = len(c.pairs) > 1
    title = f"compare: {metric} rate, paired over samples valid in both arms"
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    _columns(table, "A vs B", metric, other, several)
    for p in c.pairs:
        name = f"{escape(p.a)}\nvs {escape(p.b)}"
        table.add_row(name, *_cells(p.overall, metric, other, several), end_section=several)
    if c.pairs:
        out_console.print(table)
    for p in c.pairs:
        for label, groups in (("defect type", p.by_defect_type), ("leakage tier", p.by_leakage)):
            if not groups:
                continue
            t = Table(title=f"{escape(p.a)} vs {escape(p.b)} by {label}", box=box.SIMPLE_HEAD,
                      pad_edge=False)  # fmt: skip
            _columns(t, label, metric, other, several)
            for key, g in groups.items():
                t.add_row(escape(key), *_cells(g, metric, other, several))
            out_console.print(t)
    scored = [p for p in c.pairs if p.overall.scores]
    if scored:
        t = Table(title="metric scores, paired over samples valid in both arms",
                  box=box.SIMPLE_HEAD, pad_edge=False)  # fmt: skip
        t.add_column("A vs B", overflow="fold")
        for col in ("score", "n", "A", "B", "A−B [95% CI]"):
            t.add_column(col, justify="right", no_wrap=True)
        for p in scored:
            for i, (score, d) in enumerate(p.overall.scores.items()):
                ci = d.difference_ci
                t.add_row(
                    f"{escape(p.a)}\nvs {escape(p.b)}" if i == 0 else "", score,
                    str(p.overall.n), f"{d.mean_a:.4g}", f"{d.mean_b:.4g}",
                    f"{d.difference:+.4g}" + (f" [{ci[0]:+.4g}, {ci[1]:+.4g}]" if ci else ""),
                )  # fmt: skip
            t.rows[-1].end_section = True
        out_console.print(t)
    if c.leakage:
        t = Table(title="leakage probe: correct rate, original vs obfuscated", box=box.SIMPLE_HEAD,
                  pad_edge=False)  # fmt: skip
        t.add_column("solver", overflow="fold")
        for col in ("suite", "n", "original", "obfuscated", "drop [95% CI]", "orig./obf. only",
                    "p", "g"):  # fmt: skip
            t.add_column(col, justify="right", no_wrap=True)
        for probe in c.leakage:
            rows = [(escape(probe.solver), escape(probe.suite), probe.overall, True)]
            rows += [(f"  {escape(tier)}", "", g, False) for tier, g in probe.by_leakage.items()]
            for label, suite, g, adjusted in rows:
                t.add_row(
                    label, suite, str(g.n), rate_ci(g.rate_a, g.rate_a_ci),
                    rate_ci(g.rate_b, g.rate_b_ci),
                    _diff(g.difference, g.difference_ci, g.correct.a_only + g.correct.b_only),
                    f"{g.correct.a_only}/{g.correct.b_only}",
                    _p(g.correct.p_holm if adjusted else g.correct.p_value),
                    _g(g.correct.cohens_g),
                )  # fmt: skip
            t.rows[-1].end_section = True
        out_console.print(t)
    if c.tier_contrasts:
        _print_tiers(c.tier_contrasts, c.bootstrap, c.seed)
    if c.across_languages:
        _print_languages(c.across_languages, metric, several)
    for p in c.pairs:
        if p.excluded:
            out_console.print(
                f"{escape(p.a)} vs {escape(p.b)}: {len(p.excluded)} "
                f"sample{'' if len(p.excluded) == 1 else 's'} not paired: "
                + escape(_excluded(p.excluded)),
                highlight=False,
                soft_wrap=True,
            )
    legend = (
        []
        if not c.pairs
        else [
            f"A, B: {metric} rate over the paired samples, with its 95% Wilson interval",
            f"A−B: difference in points, 95% paired-bootstrap interval ({c.bootstrap} resamples, "
            f"seed {c.seed}); †: fewer than {FEW_DISCORDANT} discordant samples, the interval is "
            "too narrow: trust p",
            f"A/B only: samples where only A (only B) is {metric} on attempt 0; p: exact McNemar"
            + ("; Holm p: adjusted over the pairs" if several else "")
            + "; g: Cohen's g (0.05 small, 0.15 medium, 0.25 large)",
            f"{other[:5]}. p: the same test for {other} (its counts are in --json); breakdowns "
            "are exploratory (not adjusted across groups). See docs/compare.md",
        ]
    )
    if len(c.leakage) > 1:
        legend.append("leakage probe p: Holm-adjusted over the probes")
    if c.across_languages:
        legend.append(
            "arms in different languages are paired by program (meta.program), not sample id"
        )
    legend += c.notes
    for line in legend:
        out_console.print(line, style="dim", highlight=False)
    for warning in c.warnings:
        out_console.print(f"warning: {escape(warning)}", style="yellow", highlight=False)


def _print_tiers(rows: list[TierContrast], resamples: int, seed: int) -> None:
    """Per arm with public and private samples: each measure's public - private difference."""
    t = Table(title="leakage probe: public vs private samples within one arm (memorisation probe)",
              box=box.SIMPLE_HEAD, pad_edge=False)  # fmt: skip
    t.add_column("arm", overflow="fold")
    for col in ("measure", "n public", "n private", "public", "private", "public−private [95% CI]"):
        t.add_column(col, justify="right", no_wrap=True)
    for row in rows:
        for i, (name, d) in enumerate(row.measures.items()):
            ci = d.difference_ci
            t.add_row(
                escape(row.arm) if i == 0 else "", escape(name),
                str(row.n_public) if i == 0 else "", str(row.n_private) if i == 0 else "",
                f"{d.mean_public:.3g}", f"{d.mean_private:.3g}",
                f"{d.difference:+.3g}" + (f" [{ci[0]:+.3g}, {ci[1]:+.3g}]" if ci else ""),
            )  # fmt: skip
        t.rows[-1].end_section = True
    out_console.print(t)
    out_console.print(
        "public: samples of the public tiers ("
        + ", ".join(sorted({tier for r in rows for tier in r.public_tiers}))
        + f"); private: the private tier; means of per-sample means over counted attempts; "
        f"interval: unpaired bootstrap, each tier resampled on its own ({resamples} resamples, "
        f"seed {seed}). See docs/compare.md",
        style="dim",
        highlight=False,
    )


def _print_languages(rows: list[LanguageComparison], metric: str, several: bool) -> None:
    """Per solver run in two languages: the programs fixed in both, in one only, in neither."""
    t = Table(title=f"across languages: programs {metric} on attempt 0, paired by program",
              box=box.SIMPLE_HEAD, pad_edge=False)  # fmt: skip
    t.add_column("solver", overflow="fold")
    cols = ["A", "B", "programs", "both", "A only", "B only", "neither", "p"]
    for col in cols + (["Holm p"] if several else []):
        t.add_column(col, justify="right", no_wrap=True)
    for r in rows:
        t.add_row(
            escape(r.solver), escape(r.language_a), escape(r.language_b), str(r.n),
            str(len(r.both)), str(len(r.a_only)), str(len(r.b_only)), str(len(r.neither)),
            _p(r.test.p_value), *([_p(r.test.p_holm)] if several else []),
        )  # fmt: skip
    out_console.print(t)
    for r in rows:
        lines = [
            f"{r.solver}: {metric} in {r.language_a} only ({r.a}): {_names(r.a_only)}",
            f"{r.solver}: {metric} in {r.language_b} only ({r.b}): {_names(r.b_only)}",
        ]
        for lang, ids in ((r.language_a, r.unpaired_a), (r.language_b, r.unpaired_b)):
            if ids:
                lines.append(f"{r.solver}: not paired, only in {lang}: {_names(ids)}")
        for line in lines:
            out_console.print(escape(line), highlight=False, soft_wrap=True)


def _names(names: list[str]) -> str:
    return f"{len(names)}: {', '.join(names)}" if names else "none"


def _excluded(excluded: list[Excluded]) -> str:
    """``invalid-sample in A: s1, s2; missing in B: s9`` (up to 10 ids per reason)."""
    by: dict[str, list[str]] = {}
    for e in excluded:
        for arm, reason in e.reasons.items():
            by.setdefault(f"{reason} in {arm}", []).append(e.sample_id)
    parts = []
    for what, ids in by.items():
        more = f" (+{len(ids) - 10} more)" if len(ids) > 10 else ""
        parts.append(f"{what}: {', '.join(ids[:10])}{more}")
    return "; ".join(parts)
