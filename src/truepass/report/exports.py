"""Flat exports for pandas and spreadsheets: attempts.csv, attempts.json, summary.csv,
metrics.csv, curves.csv and agent_steps.csv."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel

from truepass.agentic.tools import RunCommand, runs_tests
from truepass.agentic.trajectory import ProcessMetrics, Trajectory
from truepass.records import PUBLISHED_EVIDENCE, RECORD_FIELDS, AttemptRecord
from truepass.report.curves import FamilyCurves, solver_metrics, sweep_curves
from truepass.report.load import Attempt, all_attempts, load_runs
from truepass.report.stats import RateRow, SolverStats, end_reasons, solver_stats
from truepass.report.trajectories import action_view, read_trajectory
from truepass.vocabulary import PASSES_VISIBLE, Verdict, counted

CSV_OMITS = frozenset({"patch", "test_output", "flag_details", "solver_meta"})
"""Record fields too long or too nested for a spreadsheet cell (attempts.json keeps them)."""
DERIVED_COLUMNS = ["counted", "passes_visible", "n_flags", "n_regressions", "tokens"]


def _model_of(name: str) -> type[BaseModel] | None:
    """The pydantic model a declared record field holds (``visible``: PhaseResult), if any."""
    if name in PUBLISHED_EVIDENCE:
        return PUBLISHED_EVIDENCE[name]
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
AGENT_COLUMNS = [
    "agent.end_reason",
    "agent.end_detail",
    *(f"agent.{name}" for name in ProcessMetrics.model_fields),
]
"""attempts.csv's columns of agent attempts (after the others; only when the export holds
some): how the attempt ended and its process metrics, from ``solver_meta.agent``."""
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
AGENT_STEP_COLUMNS = [
    "run",
    "solver",
    "sample_id",
    "attempt",
    "verdict",
    "end_reason",
    "step",
    "tool",
    "path",
    "command",
    "runs_tests",
    "format_error",
    "exit_code",
    "timed_out",
    "changed_files",
    "prompt_tokens",
    "completion_tokens",
    "cached",
    "finish_reason",
    "model_s",
    "action_s",
    "elided",
    "observation_chars",
    "output_cut",
]
"""agent_steps.csv: one row per step of every agent attempt."""
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
    t = read_trajectory(r.solver_meta)
    if t is not None:
        row |= _agent_cells(t)
    return {k: _cell(v) for k, v in row.items()}


def _agent_cells(t: Trajectory) -> dict[str, object]:
    """:data:`AGENT_COLUMNS` of an agent attempt."""
    metrics = {f"agent.{k}": v for k, v in t.metrics.model_dump(mode="json").items()}
    return {"agent.end_reason": t.end_reason.value, "agent.end_detail": t.end_detail} | metrics


def agent_step_rows(attempts: list[Attempt]) -> list[dict[str, object]]:
    """agent_steps.csv: one row per step of every agent attempt (:data:`AGENT_STEP_COLUMNS`);
    attempts without a trajectory have none."""
    rows = []
    for a in attempts:
        r = a.record
        t = read_trajectory(r.solver_meta)
        if t is None:
            continue
        for s in t.steps:
            act = s.action
            row: dict[str, object] = {
                "run": a.run,
                "solver": a.label,
                "sample_id": r.sample_id,
                "attempt": r.attempt,
                "verdict": r.verdict,
                "end_reason": t.end_reason.value,
                "step": s.step,
                "tool": act.tool if act else None,
                "path": action_view(s).path,
                "command": act.command if isinstance(act, RunCommand) else None,
                "runs_tests": runs_tests(act),
                "format_error": s.format_error,
                "exit_code": s.exit_code,
                "timed_out": s.timed_out,
                "changed_files": s.changed_files,
                "prompt_tokens": s.prompt_tokens,
                "completion_tokens": s.completion_tokens,
                "cached": s.cached,
                "finish_reason": s.finish_reason,
                "model_s": s.model_s,
                "action_s": s.action_s,
                "elided": s.elided,
                "observation_chars": len(s.observation),
                "output_cut": s.observation_full is not None,
            }
            rows.append({k: _cell(v) for k, v in row.items()})
    return rows


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
    """metrics.csv: one row per solver with its setting (from its records), every metric
    (:func:`truepass.report.curves.solver_metrics`) with its interval, and for agent solvers
    their process metrics (``process.NAME``, ``process.ended.REASON``)."""
    rows = []
    reasons = end_reasons(stats)
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
        if s.process is not None:
            process = s.process.model_dump()
            ended = process.pop("ended")
            row |= {f"process.{k}": v for k, v in process.items()}
            row |= {f"process.ended.{e}": ended.get(e, 0.0) for e in reasons}
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
    """Write ``attempts.csv``, ``attempts.json``, ``summary.csv``, ``metrics.csv``,
    ``curves.csv`` (header only when no solvers form a k sweep) and ``agent_steps.csv`` (header
    only when no attempt is an agent's) into ``out_dir``.

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
    steps_csv = out_dir / "agent_steps.csv"
    _write_csv(steps_csv, agent_step_rows(attempts), AGENT_STEP_COLUMNS)
    return [attempts_csv, attempts_json, summary_csv, metrics_csv, curves_csv, steps_csv]
