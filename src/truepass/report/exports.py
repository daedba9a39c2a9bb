"""Flat exports for pandas and spreadsheets: attempts.csv, attempts.json, summary.csv,
metrics.csv and curves.csv."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel

from truepass.records import RECORD_FIELDS, AttemptRecord
from truepass.report.curves import FamilyCurves, solver_metrics, sweep_curves
from truepass.report.load import Attempt, all_attempts, load_runs
from truepass.report.stats import RateRow, SolverStats, solver_stats
from truepass.vocabulary import PASSES_VISIBLE, Verdict, counted

CSV_OMITS = frozenset({"patch", "test_output", "flag_details", "solver_meta"})
"""Record fields too long or too nested for a spreadsheet cell (attempts.json keeps them)."""
DERIVED_COLUMNS = ["counted", "passes_visible", "n_flags", "n_regressions", "tokens"]


def _model_of(name: str) -> type[BaseModel] | None:
    """The pydantic model a declared record field holds (``visible``: PhaseResult), if any."""
    annotation = AttemptRecord.model_fields[name].annotation
    for t in (annotation, *get_args(annotation)):
        if isinstance(t, type) and issubclass(t, BaseModel):
            return t
    return None


def _columns(name: str) -> list[str]:
    model = _model_of(name)
    return [f"{name}.{sub}" for sub in model.model_fields] if model else [name]


ATTEMPT_COLUMNS = [
    "run",
    *(c for f in RECORD_FIELDS if f not in CSV_OMITS for c in _columns(f)),
    *DERIVED_COLUMNS,
]
"""The first columns of attempts.csv: the run, then the record's declared fields in their order
(a field holding a model becomes ``NAME.SUB`` columns in its place), then the derived ones;
mapping-valued fields and fields a newer truepass wrote follow as ``NAME.SUB`` columns."""
SUMMARY_COLUMNS = [
    "solver",
    "runs",
    "defect_type",
    "attempts",
    "counted",
    "correct",
    "correct_rate",
    "correct_ci_low",
    "correct_ci_high",
    "plausible",
    "plausible_rate",
    "plausible_ci_low",
    "plausible_ci_high",
    "overfit_share",
]
METRICS_COLUMNS = [
    "solver",
    "runs",
    "family",
    "model",
    "variant",
    "setting",
    "k",
    "context",
    "retrieval",
    "attempts",
    "counted",
]
"""The first columns of metrics.csv; then ``NAME``, ``NAME_ci_low``, ``NAME_ci_high`` per metric."""
CURVES_COLUMNS = [
    "family",
    "line",
    "setting",
    "context",
    "retrieval",
    "k",
    "solver",
    "counted",
    "metric",
    "charted",
    "value",
    "ci_low",
    "ci_high",
]
ALL = "all"
"""the ``defect_type`` of a solver's overall row in summary.csv"""


def _cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ";".join(str(_cell(v)) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value


def attempt_row(a: Attempt) -> dict[str, object]:
    """One flat row of attempts.csv: every record field (declared ones first, then any a newer
    truepass wrote) but :data:`CSV_OMITS`, objects as ``NAME.SUB`` columns, and the derived
    columns."""
    r, raw = a.record, a.raw
    row: dict[str, object] = {"run": a.run}
    declared = [f for f in RECORD_FIELDS if f not in CSV_OMITS]
    for key in declared + sorted(k for k in raw if k not in RECORD_FIELDS):
        value = a.label if key == "solver" else raw.get(key)
        if key in RECORD_FIELDS and _model_of(key):
            row |= {c: None for c in _columns(key)}
        if isinstance(value, dict):
            row |= {f"{key}.{sub}": v for sub, v in value.items()}
        elif not (key in RECORD_FIELDS and _model_of(key)):
            row[key] = value
    u = r.usage
    row |= {
        "counted": counted(r.verdict),
        "passes_visible": r.verdict in PASSES_VISIBLE,
        "n_flags": len(r.flags),
        "n_regressions": len(r.regressions),
        "tokens": u.prompt_tokens + u.completion_tokens if u else None,
    }
    return {k: _cell(v) for k, v in row.items()}


def _rate_cells(r: RateRow) -> dict[str, object]:
    lo_c, hi_c = r.correct_ci or (None, None)
    lo_p, hi_p = r.plausible_ci or (None, None)
    cells: dict[str, object] = {
        "attempts": r.attempts,
        "counted": r.counted,
        "correct": r.correct,
        "correct_rate": r.correct_rate,
        "correct_ci_low": lo_c,
        "correct_ci_high": hi_c,
        "plausible": r.plausible,
        "plausible_rate": r.plausible_rate,
        "plausible_ci_low": lo_p,
        "plausible_ci_high": hi_p,
        "overfit_share": r.overfit_share,
    }
    for k, v in cells.items():
        if isinstance(v, float):
            cells[k] = round(v, 6)
    for v in r.verdicts:
        cells[f"n_{v}"] = r.verdicts[v]
    return cells


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def metrics_rows(stats: list[SolverStats]) -> list[dict[str, object]]:
    """metrics.csv: one row per solver with its setting (from its records) and every metric
    (:func:`truepass.report.curves.solver_metrics`) with its interval."""
    rows = []
    for s in stats:
        st = s.setting
        row: dict[str, object] = {
            "solver": s.label,
            "runs": ";".join(s.runs),
            "family": s.family,
            "model": st.model,
            "variant": st.variant,
            "setting": st.base,
            "k": st.k,
            "context": st.context,
            "retrieval": st.retrieval,
            "attempts": s.overall.attempts,
            "counted": s.overall.counted,
        }
        for name, e in solver_metrics(s).items():
            row |= {
                name: _round(e.value),
                f"{name}_ci_low": _round(e.low),
                f"{name}_ci_high": _round(e.high),
            }
        rows.append({k: _cell(v) for k, v in row.items()})
    return rows


def curves_rows(curves: list[FamilyCurves]) -> list[dict[str, object]]:
    """curves.csv: one row per point of every metric-versus-k curve and metric (long format)."""
    rows = []
    for fc in curves:
        for c in fc.curves:
            for p in c.points:
                for name, e in p.metrics.items():
                    row: dict[str, object] = {
                        "family": fc.family,
                        "line": c.label,
                        "setting": c.base,
                        "context": c.context,
                        "retrieval": c.retrieval,
                        "k": p.k,
                        "solver": p.solver,
                        "counted": p.counted,
                        "metric": name,
                        "charted": name in fc.metrics,
                        "value": _round(e.value),
                        "ci_low": _round(e.low),
                        "ci_high": _round(e.high),
                    }
                    rows.append({k: _cell(v) for k, v in row.items()})
    return rows


def _write_csv(path: Path, rows: list[dict[str, object]], first: list[str]) -> None:
    columns = list(first)
    for row in rows:
        columns += [k for k in row if k not in columns]
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns, restval="")
        writer.writeheader()
        writer.writerows(rows)


def write_exports(run_dirs: list[Path], out_dir: Path) -> list[Path]:
    """Write ``attempts.csv``, ``attempts.json``, ``summary.csv``, ``metrics.csv`` and
    ``curves.csv`` (header only when no solvers form a k sweep) into ``out_dir``.

    Args:
        run_dirs: run directories (each with a results.jsonl).
        out_dir: where to write (created if missing).

    Returns:
        The paths written. Columns are described in docs/report.md.

    Raises:
        InputError: a missing directory, a directory without results.jsonl, a malformed record.
    """
    runs = load_runs(run_dirs)
    attempts = all_attempts(runs)
    out_dir.mkdir(parents=True, exist_ok=True)

    rows = [attempt_row(a) for a in attempts]
    attempts_csv = out_dir / "attempts.csv"
    _write_csv(attempts_csv, rows, ATTEMPT_COLUMNS)

    attempts_json = out_dir / "attempts.json"
    records: list[dict[str, Any]] = [{"run": a.run, **a.raw} for a in attempts]
    attempts_json.write_text(
        json.dumps(records, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )

    verdict_columns = [f"n_{v}" for v in Verdict]
    stats = solver_stats(attempts)
    summary_rows = []
    for s in stats:
        for defect, rate in [(ALL, s.overall), *s.by_defect_type.items()]:
            row = {"solver": s.label, "runs": ";".join(s.runs), "defect_type": defect}
            row |= {c: 0 for c in verdict_columns} | _rate_cells(rate)
            summary_rows.append({k: _cell(v) for k, v in row.items()})
    summary_csv = out_dir / "summary.csv"
    _write_csv(summary_csv, summary_rows, SUMMARY_COLUMNS + verdict_columns)

    metrics_csv = out_dir / "metrics.csv"
    _write_csv(metrics_csv, metrics_rows(stats), METRICS_COLUMNS)
    curves_csv = out_dir / "curves.csv"
    _write_csv(curves_csv, curves_rows(sweep_curves(stats)), CURVES_COLUMNS)
    return [attempts_csv, attempts_json, summary_csv, metrics_csv, curves_csv]
