"""Read finished run directories (results.jsonl, manifest.json) for the report and the exports."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from truepass.analysis.agreement import Agreement
from truepass.analysis.humanreview import attempt_key, run_agreement
from truepass.errors import InputError
from truepass.families.registry import DEFAULT as DEFAULT_FAMILY
from truepass.records import AttemptRecord, read_results


@dataclass
class Attempt:
    """One line of results.jsonl: the validated record and where it came from (its plain data
    for rendering, :attr:`raw`, is made when first asked for: a large report shows few pages)."""

    record: AttemptRecord
    run: str
    label: str
    """the solver as shown in the report: its name, prefixed by the run when two runs share it"""
    index: int = 0
    """position in the report (1-based), used for the ``#attempt-N`` pages"""
    family: str = DEFAULT_FAMILY
    """the task family of the run's suite (from its manifest)"""
    family_options: dict[str, str] = field(default_factory=dict)
    """the family's options the run was made with (its manifest's ``family_options``)"""

    @cached_property
    def raw(self) -> dict[str, Any]:
        """The record as plain JSON data."""
        return self.record.model_dump(mode="json")


@dataclass
class Run:
    """One run directory."""

    path: Path
    name: str
    manifest: dict[str, Any]
    attempts: list[Attempt] = field(default_factory=list)
    review: Agreement | None = None
    """the agreement of the human review's labels imported into it (review-import)"""

    def attempt_index(self, key: str) -> int | None:
        """The report's number of the attempt ``SOLVER/SAMPLE/ATTEMPT`` of this run."""
        for a in self.attempts:
            if attempt_key(a.record) == key:
                return a.index
        return None


def _manifest(run_dir: Path) -> dict[str, Any]:
    path = run_dir / "manifest.json"
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON ({exc.msg})", location=str(path)) from None
    return data if isinstance(data, dict) else {}


def load_runs(
    run_dirs: list[Path], records: Mapping[Path, list[AttemptRecord]] | None = None
) -> list[Run]:
    """Load run directories (or results ``.jsonl`` files) in order.

    Args:
        run_dirs: directories written by ``truepass run`` or ``truepass judge``.
        records: the records of some of them, already read (a run that has just written its
            results.jsonl passes them, rather than have them read and validated again).

    Returns:
        One :class:`Run` per directory. Attempts are numbered from 1 across all runs, and a solver
        that appears in more than one run is labelled ``RUN/SOLVER`` so that they stay apart.

    Raises:
        InputError: no directory given, a missing directory, no results.jsonl, a malformed line.
    """
    if not run_dirs:
        raise InputError("no run directory given")
    runs: list[Run] = []
    names: Counter[str] = Counter()
    for path in run_dirs:
        known = (records or {}).get(path)
        loaded = known if known is not None else read_results(path, allow_empty=True)
        run_dir = path if path.is_dir() else path.parent
        name = run_dir.resolve().name or str(run_dir)
        names[name] += 1
        if names[name] > 1:
            name = f"{name}#{names[name]}"
        run = Run(path=run_dir, name=name, manifest=_manifest(run_dir))
        suite = run.manifest.get("suite")
        family = (
            str(suite.get("family", DEFAULT_FAMILY)) if isinstance(suite, dict) else DEFAULT_FAMILY
        )
        chosen = run.manifest.get("family_options")
        options = {str(k): str(v) for k, v in chosen.items()} if isinstance(chosen, dict) else {}
        for record in loaded:
            run.attempts.append(
                Attempt(record=record, run=name, label=record.solver, family=family,
                        family_options=options)
            )  # fmt: skip
        run.review = run_agreement(run_dir, loaded)
        runs.append(run)
    solver_runs: dict[str, set[str]] = {}
    for run in runs:
        for a in run.attempts:
            solver_runs.setdefault(a.record.solver, set()).add(run.name)
    index = 0
    for run in runs:
        for a in run.attempts:
            index += 1
            a.index = index
            if len(solver_runs[a.record.solver]) > 1:
                a.label = f"{run.name}/{a.record.solver}"
    return runs


def all_attempts(runs: list[Run]) -> list[Attempt]:
    return [a for run in runs for a in run.attempts]
