"""The report command: an HTML report of one or more runs, and CSV/JSON exports."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from truepass.cli.common import errors, out_console

RunsArg = Annotated[
    list[Path],
    typer.Argument(help="Run directories (each with a results.jsonl).", metavar="RUN_DIR..."),
]
ReportOutOpt = Annotated[Path, typer.Option("--out", "-o", help="The HTML file to write.")]
ExportsOpt = Annotated[
    Path | None,
    typer.Option(
        "--exports",
        help="Also write attempts.csv, attempts.json, summary.csv, metrics.csv, curves.csv and "
        "agent_steps.csv into this directory.",
    ),
]


def report_cmd(
    runs: RunsArg, out: ReportOutOpt = Path("report.html"), exports: ExportsOpt = None
) -> None:
    """Write a self-contained HTML report of runs (opens offline), and optionally CSV/JSON."""
    from truepass.report import write_exports, write_report

    with errors():
        path = write_report(runs, out)
        out_console.print(f"report: {escape(str(path))}", highlight=False)
        if exports is not None:
            for written in write_exports(runs, exports):
                out_console.print(f"export: {escape(str(written))}", highlight=False)
