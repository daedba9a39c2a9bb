"""``truepass build-suite summarize``: functions and their docstrings from Python source
(docs/summarize-format.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from truepass.cli.common import errors, out_console
from truepass.errors import InputError

SHOWN_UNPARSABLE = 5


def summarize_cmd(
    out: Annotated[Path, typer.Option("--out", "-o", help="Suite directory to write.")],
    from_path: Annotated[
        Path | None,
        typer.Option("--from", help="A Python source tree or git repository (timestamps)."),
    ] = None,
    from_package: Annotated[
        str | None, typer.Option("--from-package", help="An installed distribution's name.")
    ] = None,
    project: Annotated[
        str | None,
        typer.Option(help="Project name (default: the directory's or distribution's name)."),
    ] = None,
    limit: Annotated[
        int | None, typer.Option(min=1, help="Keep the first N functions (in path order).")
    ] = None,
    leakage: Annotated[
        str | None,
        typer.Option(
            help="Leakage tier: public-old (default with --from-package), "
            "public-recent, private (default with --from)."
        ),
    ] = None,
) -> None:
    """Functions with their docstrings as code summarisation samples, with the study's filters
    (no test functions or test files, no dunder methods, a docstring of at most 500 words).
    The reference summary is the docstring's first paragraph. See docs/summarize-format.md."""
    from truepass.families.summarize.builder import (
        FILTERS,
        build_from_package,
        build_from_path,
        write_suite,
    )

    with errors():
        if (from_path is None) == (from_package is None):
            raise InputError("give exactly one of --from PATH and --from-package NAME")
        if from_path is not None:
            samples, report = build_from_path(
                from_path, project=project, leakage=leakage or "private", limit=limit
            )
        else:
            assert from_package is not None
            samples, report = build_from_package(
                from_package, project=project, leakage=leakage or "public-old", limit=limit
            )
        if not samples:
            dropped = ", ".join(f"{n} {why}" for why, n in report.dropped.items() if n)
            raise InputError(
                f"no functions kept: {report.found} found in {report.files} Python files"
                + (f" (dropped: {dropped})" if dropped else ""),
                location=str(from_path or from_package),
            )
        write_suite(samples, report, out)
    where = {"package": f"installed distribution {report.project} {report.version}",
             "git": f"git repository at commit {report.commit}",
             "directory": "source tree (not in git: no timestamps)"}[report.origin]  # fmt: skip
    out_console.print(f"{escape(report.project)}: {where}, {escape(report.root)}", highlight=False)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("functions")
    table.add_column("count", justify="right")
    table.add_column("")
    table.add_row("found", str(report.found), f"in {report.files} Python files")
    for why, meaning in FILTERS.items():
        table.add_row(f"dropped: {why}", str(report.dropped[why]), meaning)
    table.add_row("[bold]kept[/]", f"[bold]{report.kept}[/]", "", end_section=True)
    out_console.print(table)
    if report.unparsable:
        shown = ", ".join(report.unparsable[:SHOWN_UNPARSABLE])
        more = len(report.unparsable) - SHOWN_UNPARSABLE
        out_console.print(f"{len(report.unparsable)} files not parsed (not Python 3 text): "
                          f"{escape(shown)}" + (f" and {more} more" if more > 0 else ""),
                          style="yellow", highlight=False)  # fmt: skip
    blame = f" (git blame {report.blame_seconds:.1f} s)" if report.origin == "git" else ""
    out_console.print(
        f"{report.kept} samples written to {escape(str(out))}/ (suite.jsonl, suite.toml, "
        f"build.json) in {report.seconds:.1f} s{blame}",
        highlight=False,
    )
