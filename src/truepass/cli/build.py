"""``truepass build-suite``: make suites out of material that is not a benchmark. Its
subcommands are the families' (``summarize``, ``patch-correctness``, a plug-in's), found by
:mod:`truepass.cli.discovery`."""

from __future__ import annotations

import typer

build_app = typer.Typer(
    help="Build a suite from source code (summarize) or from earlier runs (patch-correctness).",
    no_args_is_help=True,
)
