"""Flat exports for pandas and spreadsheets: attempts.csv, attempts.json, summary.csv."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from truepass.report.load import Attempt, all_attempts, load_runs
from truepass.report.stats import VERDICTS, RateRow, counted, solver_stats
from truepass.report.views import CORE_FIELDS

PHASE_FIELDS = ["expected", "passed", "failed", "missing", "ok"]
ATTEMPT_COLUMNS = [
    "run",
    "suite",
    "sample_id",
    "defect_type",
    "leakage",
    "solver",
    "attempt",
    "patch_id",
    "verdict",
    "counted",
    "passes_visible",
    "flags",
    "n_flags",
    *(f"visible_{f}" for f in PHASE_FIELDS),
    *(f"hidden_{f}" for f in PHASE_FIELDS),
    "regressions",
    "changed_files",
    "solve_s",
    "duration_s",
    "calls",
    "cached_calls",
    "prompt_tokens",
    "completion_tokens",
    "tokens",
    "latency_s",
    "cost_usd",
    "parse",
    "sandbox_tier",
    "infra_retries",
    "details",
]
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


def _flatten(prefix: str, value: object, into: dict[str, object]) -> None:
    """A record field as columns: ``NAME.SUB`` per key of an object (one level; deeper objects
    stay JSON so that file names never become column names), lists joined by ``;``."""
    if isinstance(value, dict):
        for k, v in value.items():
            into[f"{prefix}.{k}"] = _cell(v)
    else:
        into[prefix] = _cell(value)


def attempt_row(a: Attempt) -> dict[str, object]:
    """One flat row of attempts.csv; fields added to records later become ``NAME.SUB`` columns."""
    r, raw = a.record, a.raw
    u = r.usage
    row: dict[str, object] = {
        "run": a.run,
        "suite": r.suite,
        "sample_id": r.sample_id,
        "defect_type": r.defect_type,
        "leakage": r.leakage,
        "solver": a.label,
        "attempt": r.attempt,
        "patch_id": r.patch_id,
        "verdict": r.verdict,
        "counted": counted(r.verdict),
        "passes_visible": r.verdict in {"plausible", "overfit", "correct"},
        "flags": r.flags,
        "n_flags": len(r.flags),
        "regressions": len(raw.get("regressions") or []),
        "changed_files": r.changed_files,
        "solve_s": r.solve_s,
        "duration_s": r.duration_s,
        "calls": u.calls if u else None,
        "cached_calls": u.cached_calls if u else None,
        "prompt_tokens": u.prompt_tokens if u else None,
        "completion_tokens": u.completion_tokens if u else None,
        "tokens": u.prompt_tokens + u.completion_tokens if u else None,
        "latency_s": u.latency_s if u else None,
        "cost_usd": u.cost_usd if u else None,
        "parse": r.parse,
        "sandbox_tier": r.sandbox_tier,
        "infra_retries": r.infra_retries,
        "details": r.details,
    }
    for phase in ("visible", "hidden"):
        p = raw.get(phase) if isinstance(raw.get(phase), dict) else {}
        for f in PHASE_FIELDS:
            row[f"{phase}_{f}"] = p.get(f)
    for key in sorted(k for k in raw if k not in CORE_FIELDS and k != "regressions"):
        _flatten(key, raw[key], row)
    if raw.get("regressions"):
        row["regression_tests"] = raw["regressions"]
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


def _write_csv(path: Path, rows: list[dict[str, object]], first: list[str]) -> None:
    columns = list(first)
    for row in rows:
        columns += [k for k in row if k not in columns]
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns, restval="")
        writer.writeheader()
        writer.writerows(rows)


def write_exports(run_dirs: list[Path], out_dir: Path) -> list[Path]:
    """Write ``attempts.csv``, ``attempts.json`` and ``summary.csv`` into ``out_dir``.

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

    verdict_columns = [f"n_{v}" for v in VERDICTS]
    summary_rows = []
    for s in solver_stats(attempts):
        for defect, rate in [(ALL, s.overall), *s.by_defect_type.items()]:
            row = {"solver": s.label, "runs": ";".join(s.runs), "defect_type": defect}
            row |= {c: 0 for c in verdict_columns} | _rate_cells(rate)
            summary_rows.append({k: _cell(v) for k, v in row.items()})
    summary_csv = out_dir / "summary.csv"
    _write_csv(summary_csv, summary_rows, SUMMARY_COLUMNS + verdict_columns)
    return [attempts_csv, attempts_json, summary_csv]
