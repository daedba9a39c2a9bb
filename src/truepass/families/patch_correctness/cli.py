"""``truepass build-suite patch-correctness``: samples from repair runs
(docs/patch-correctness-format.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from truepass.cli.common import errors, out_console
from truepass.errors import InputError


def patch_correctness_cmd(
    from_runs: Annotated[
        list[Path],
        typer.Option("--from", help="A repair run directory (repeat for several runs)."),
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Suite directory to write.")],
) -> None:
    """Patches that passed the visible tests in repair runs, labelled correct or overfitting by
    the hidden tests, deduplicated on the patched code, with the reference fixes of the runs'
    samples. See docs/patch-correctness-format.md."""
    from truepass.families.patch_correctness.builder import SKIPS, build, write_suite

    with errors():
        samples, report = build(from_runs)
        if not report.passing:  # the reference fixes alone: one label, nothing to judge
            raise InputError(f"no attempt of {report.attempts} passed the visible tests",
                             location=", ".join(map(str, from_runs)))  # fmt: skip
        write_suite(samples, report, out)
    runs = f"{len(report.runs)} run" + ("s" if len(report.runs) != 1 else "")
    out_console.print(f"{runs} of {escape(', '.join(report.suites))}: "
                      f"{report.attempts} attempts", highlight=False)  # fmt: skip
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("attempts")
    table.add_column("count", justify="right")
    table.add_column("")
    table.add_row("passed the visible tests", str(report.passing), "")
    for why, meaning in SKIPS.items():
        table.add_row(f"skipped: {why}", str(report.skipped[why]), meaning)
    table.add_row("correct with a fake-fix flag", str(report.flagged_correct),
                  "labelled overfitting")  # fmt: skip
    table.add_row("duplicates", str(report.duplicates), "the same patched code as another")
    table.add_row("conflicting", str(report.conflicting), "patches dropped: labels disagree")
    out_console.print(table)
    split = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    split.add_column("samples")
    for label in ("correct", "overfitting", "total"):
        split.add_column(label, justify="right")
    for what, counts in (("tool-only", report.tool), ("reference fixes", report.reference),
                         ("all", report.labels)):  # fmt: skip
        split.add_row(what, str(counts.get("correct", 0)), str(counts.get("overfitting", 0)),
                      str(sum(counts.values())))  # fmt: skip
    out_console.print(split)
    out_console.print(
        f"{report.samples} samples written to {escape(str(out))}/ (suite.jsonl, suite.toml, "
        f"build.json) in {report.seconds:.1f} s; {report.reference_found_by_tools} reference "
        "fixes were also produced by a tool",
        highlight=False,
    )
