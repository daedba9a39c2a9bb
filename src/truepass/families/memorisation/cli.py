"""``truepass build-suite memorisation``: prefixes and continuations of a suite's source files
and of control suites' (docs/memorisation-format.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from truepass.cli.common import errors, out_console
from truepass.errors import InputError


def memorisation_cmd(
    from_ref: Annotated[
        str,
        typer.Option(
            "--from",
            help="The suite probed (as run --suite takes it: a bundled name, a directory, "
            "quixbugs:PATH).",
        ),
    ],
    control: Annotated[
        list[str],
        typer.Option(help="A control suite the model cannot have seen (repeat for several)."),
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Suite directory to write.")],
    prefix_share: Annotated[
        float,
        typer.Option(help="The share of each file's lines shown (in (0, 1))."),
    ] = 0.5,
    lines: Annotated[
        int, typer.Option(min=1, help="Non-blank lines of each continuation (the answer).")
    ] = 8,
    limit: Annotated[
        int | None, typer.Option(min=1, help="Keep the first N files of each suite.")
    ] = None,
) -> None:
    """The memorisation probe: the first part of each source file of a suite (the target) and of
    control suites the model cannot have seen, with the file's next lines as the answer. See
    docs/memorisation-format.md."""
    from truepass.families.memorisation.builder import build, write_suite

    with errors():
        if not 0.0 < prefix_share < 1.0:
            raise InputError(f"must be in (0, 1), got {prefix_share:g}", field="--prefix-share")
        samples, report = build(
            from_ref, control, prefix_share=prefix_share, lines=lines, limit=limit
        )
        if not samples:
            raise InputError("no file kept: every file is too short or a duplicate",
                             location=from_ref, field="--from")  # fmt: skip
        write_suite(samples, report, out)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for col in ("role", "suite", "samples", "files", "duplicates", "short", "beyond limit",
                "kept", "leakage"):  # fmt: skip
        table.add_column(col, justify="left" if col in ("role", "suite", "leakage") else "right")
    for s in report.sources:
        tiers = ", ".join(f"{tier} {n}" for tier, n in sorted(s.leakage.items()))
        table.add_row(
            s.role, escape(s.suite), str(s.samples), str(s.files), str(s.duplicates),
            str(s.short), str(s.beyond_limit), f"[bold]{s.kept}[/]", tiers,
        )  # fmt: skip
    out_console.print(table)
    out_console.print(
        f"files: of every sample (shared ones each time); duplicates: the text of a file kept "
        f"already; short: fewer than {lines} non-blank lines after the first {prefix_share:g} "
        "of its lines",
        style="dim",
        highlight=False,
    )
    out_console.print(
        f"{len(samples)} samples written to {escape(str(out))}/ (suite.jsonl, suite.toml, "
        f"build.json) in {report.seconds:.1f} s",
        highlight=False,
    )
