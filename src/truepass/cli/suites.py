"""Suite commands: check-suite, suites, and summary of a run directory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from truepass.analysis.summary import Summary
from truepass.cli.common import (
    JobsOpt,
    TimeoutOpt,
    TransformOpt,
    errors,
    judge_config,
    load,
    out_console,
    progress,
)  # fmt: skip
from truepass.cli.tables import print_summary
from truepass.errors import InputError
from truepass.suites.loader import bundled_suites, load_suite


def check_suite_cmd(
    suite: Annotated[str, typer.Argument(help="Bundled suite name or path.")],
    jobs: JobsOpt = 2,
    timeout: TimeoutOpt = 60.0,
    reruns: Annotated[int, typer.Option(min=1, help="Reruns of the reference fix.")] = 2,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write a report.")] = None,
    transform: TransformOpt = None,
) -> None:
    """Validate a suite: buggy code fails, reference fix passes stably, overfit patches overfit.

    Exits 1 when any sample has a problem.
    """
    from truepass.checking import check_suite

    with errors():
        loaded = load(suite, transform)
        with progress() as update:
            health = check_suite(
                loaded, config=judge_config(timeout, reruns), jobs=jobs, progress=update
            )
    if json_out:
        json_out.write_text(health.model_dump_json(indent=2) + "\n", encoding="utf-8")
    for s in health.problems:
        text = f"[red]{escape(s.sample_id)}[/]: " + escape("; ".join(s.problems))
        out_console.print(text, highlight=False, soft_wrap=True)
    for s in health.samples:
        for warning in s.warnings:
            out_console.print(f"[yellow]{escape(s.sample_id)}[/]: {escape(warning)}",
                              highlight=False, soft_wrap=True)  # fmt: skip
    n = len(health.samples)
    overfits = sum(s.known_overfit == "overfit" for s in health.samples)
    with_overfit = sum(s.known_overfit is not None for s in health.samples)
    out_console.print(
        f"{loaded.name}: {n} samples, {health.valid} valid, {len(health.problems)} with problems; "
        f"known_overfit judged overfit {overfits}/{with_overfit}; sandbox {health.sandbox_tier}"
    )
    if health.problems:
        raise typer.Exit(1)


def suites_cmd() -> None:
    """List the bundled suites with their sample counts."""
    table = Table()
    for col in ("name", "version", "samples", "defect types", "description"):
        table.add_column(col)
    for name in bundled_suites():
        s = load_suite(name)
        types = len({x.defect_type for x in s.samples})
        table.add_row(name, s.version, str(len(s.samples)), str(types), s.description)
    out_console.print(table)


def summary_cmd(out: Annotated[Path, typer.Argument(help="A run directory.")]) -> None:
    """Print the summary table of a finished run."""
    with errors():
        path = out / "summary.json"
        if not path.is_file():
            raise InputError("no summary.json: not a finished run directory", location=str(out))
        print_summary(Summary.model_validate(json.loads(path.read_text(encoding="utf-8"))))


def import_cmd(
    fmt: Annotated[str, typer.Argument(metavar="FORMAT", help="quixbugs | humanevalfix")],
    path: Annotated[Path, typer.Argument(help="The benchmark's data file or directory.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Suite directory to write.")],
) -> None:
    """Turn a public benchmark into a suite directory (suite.jsonl + suite.toml)."""
    from truepass.suites.loader import load_adapted, write_suite_dir

    with errors():
        suite = load_adapted(fmt, path)
        write_suite_dir(suite, out)
    out_console.print(f"{suite.name}: {len(suite.samples)} samples written to {out}/")
