"""The HTML report: one self-contained file (inline CSS, inline SVG, one inline script)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import tempfile
from collections import Counter
from collections.abc import Mapping
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from importlib.resources import files
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemBytecodeCache, PackageLoader, StrictUndefined

from truepass.analysis.summary import Summary
from truepass.paths import user_cache_dir
from truepass.records import AttemptRecord
from truepass.report import charts
from truepass.report import groups as grouping
from truepass.report.curves import Estimate, solver_metrics, sweep_curves
from truepass.report.load import all_attempts, load_runs
from truepass.report.stats import (
    SolverStats,
    defect_types,
    end_reasons,
    solver_stats,
    verdict_order,
)
from truepass.report.views import SampleLinks, attempt_view
from truepass.vocabulary import FLAG_MEANING, VERDICT_MEANING


def _asset(name: str) -> str:
    return (files("truepass.report") / "templates" / name).read_text(encoding="utf-8")


def _csp(script: str) -> str:
    """Only our own inline script may run (by its hash); nothing may be fetched."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    return (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
        f"script-src 'sha256-{digest}'; base-uri 'none'; form-action 'none'"
    )


def _version() -> str:
    try:
        return version("truepass")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return ""


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _interval(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}"


def _bytecode_cache() -> FileSystemBytecodeCache | None:
    """The compiled template kept in ``$XDG_CACHE_HOME/truepass/templates`` (compiling it costs
    a tenth of a second per run); None where that directory cannot be made."""
    directory = user_cache_dir() / "templates"
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return FileSystemBytecodeCache(str(directory)) if os.access(directory, os.W_OK) else None


def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("truepass.report", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        bytecode_cache=_bytecode_cache(),
    )
    env.filters["pct"] = _pct
    env.filters["interval"] = _interval
    env.filters["estimate"] = lambda e, metric: charts.estimate_text(metric, e)
    env.filters["pretty"] = lambda v: json.dumps(v, indent=2, ensure_ascii=False, default=str)
    env.tests["mapping_"] = lambda v: isinstance(v, dict)
    env.tests["list_"] = lambda v: isinstance(v, list | tuple)
    return env


def render_report(
    run_dirs: list[Path],
    records: Mapping[Path, list[AttemptRecord]] | None = None,
    summaries: Mapping[Path, Summary] | None = None,
) -> str:
    """The report's HTML for ``run_dirs`` (see :func:`write_report`)."""
    runs = load_runs(run_dirs, records)
    attempts = all_attempts(runs)
    given = summaries or {}
    named = {run.name: given[p] for p, run in zip(run_dirs, runs, strict=True) if p in given}
    stats = solver_stats(attempts, named)
    limit = grouping.PAGE_LIMIT
    grouped = len(attempts) > limit
    groups, paged = grouping.group_attempts(attempts, limit) if grouped else ([], attempts)
    links = SampleLinks(paged)
    views = [attempt_view(a, links) for a in paged]
    curves = [
        (fc, [(m, charts.curve_chart(fc, m)) for m in fc.metrics]) for fc in sweep_curves(stats)
    ]
    cost_svg, cost_note = charts.cost_chart(stats)
    script = _asset("report.js")
    flags_seen = sorted({f for a in attempts for f in a.record.flags})
    context: dict[str, Any] = {
        "title": "truepass report: " + ", ".join(dict.fromkeys(r.name for r in runs)),
        "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "version": _version(),
        "runs": runs,
        "stats": stats,
        "views": views,
        "verdicts": verdict_order(stats),
        "solvers": [s.label for s in stats],
        "defect_types": defect_types(stats),
        "flags_seen": flags_seen,
        "flag_counts": Counter(f for a in attempts for f in a.record.flags),
        "attempt_count": len(attempts),
        "groups": groups,
        "group_k": grouping.largest_k(k for s in stats for k in s.pass_at_k) if grouped else None,
        "page_limit": limit,
        "flag_help": FLAG_MEANING,
        "verdict_help": {v.value: text for v, text in VERDICT_MEANING.items()},
        "verdict_colour": charts.verdict_colour,
        "solver_colour": charts.solver_colour,
        "any_model": any(s.uses_model for s in stats),
        "pass_k": any(len(s.pass_at_k) > 1 for s in stats),
        "metric_rows": metric_rows(stats),
        "family_options": sorted({f"{k}={v}" for s in stats for k, v in s.family_options.items()}),
        "agent_stats": [s for s in stats if s.process is not None],
        "end_reasons": end_reasons(stats),
        "charts": {
            "verdicts": charts.verdict_chart(stats),
            "defects": charts.defect_chart(stats),
            "gap": charts.gap_chart(stats),
            "cost": cost_svg,
        },
        "cost_note": cost_note,
        "curves": curves,
        "css": _asset("report.css"),
        "script": script,
        "csp": _csp(script),
    }
    return _environment().get_template("report.html.j2").render(context)


def metric_rows(stats: list[SolverStats]) -> list[tuple[str, list[Estimate | None]]]:
    """The family metrics table: one row per metric (its interval folded in), in the order the
    solvers first give them, with one cell per solver (None: that solver has none)."""
    per_solver = [solver_metrics(s) if s.metrics else {} for s in stats]
    names = list(dict.fromkeys(name for m in per_solver for name in m))
    return [(name, [m.get(name) for m in per_solver]) for name in names]


def write_report(
    run_dirs: list[Path],
    out: Path,
    records: Mapping[Path, list[AttemptRecord]] | None = None,
    summaries: Mapping[Path, Summary] | None = None,
) -> Path:
    """Write the HTML report of one or more runs to ``out`` and return its path.

    The file is self-contained and opens offline: styles, charts (inline SVG) and the script that
    filters, sorts and opens attempt pages are all inside it, and its content security policy
    forbids fetching anything. Every text from the runs is escaped.

    Args:
        run_dirs: run directories (each with a results.jsonl; manifest.json is used if present).
        out: the HTML file to write (its directory is created).
        records: the records of some of the runs, already read (see
            :func:`~truepass.report.load.load_runs`).
        summaries: the summaries of some of the runs, made from those same records (the
            runner's): each solver's statistics are taken from them rather than summarised
            again (the page is the same).

    Raises:
        InputError: a missing directory, a directory without results.jsonl, a malformed record.
    """
    return write_page(out, render_report(run_dirs, records, summaries), prefix=".report-")


def write_page(out: Path, html: str, *, prefix: str) -> Path:
    """Write a rendered page to ``out`` at once (a temporary file beside it, renamed: a reader
    never sees half a page), creating its directory; return ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=prefix, suffix=".html")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(html)
    os.chmod(tmp, 0o644)
    Path(tmp).replace(out)
    return out
