"""The CLI as the end-to-end tests drive it: a command that must succeed, and a run's results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from truepass.cli import app


def invoke(*args: str, code: int = 0) -> str:
    """``truepass ARGS`` in this process; its output, after checking its exit status."""
    got = CliRunner().invoke(app, list(args), terminal_width=200)
    assert got.exit_code == code, got.output
    return got.output


def results(run: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """A run's records by (solver, sample id)."""
    lines = (run / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return {(r["solver"], r["sample_id"]): r for r in map(json.loads, lines)}
