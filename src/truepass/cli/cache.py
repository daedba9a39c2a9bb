"""``truepass cache stats|clear``: the response cache."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from truepass.cli.common import errors, out_console

cache_app = typer.Typer(help="Inspect or clear the model response cache.", no_args_is_help=True)
PathOpt = Annotated[Path | None, typer.Option("--cache", help="Cache file (default: the user's).")]


@cache_app.command("stats")
def stats_cmd(cache: PathOpt = None) -> None:
    """Entries and size of the response cache, per model."""
    from truepass.models import ResponseCache

    with errors():
        c = ResponseCache(cache)
        s = c.stats()
    out_console.print(f"{c.path}: {s['entries']} entries, {s['bytes']:,} bytes")
    table = Table("model", "entries", "bytes")
    for model, row in sorted(s["by_model"].items()):
        table.add_row(model, str(row["entries"]), f"{row['bytes']:,}")
    out_console.print(table)


@cache_app.command("clear")
def clear_cmd(
    cache: PathOpt = None,
    model: Annotated[str | None, typer.Option(help="Only this model's entries.")] = None,
) -> None:
    """Delete cached responses (all, or one model's)."""
    from truepass.models import ResponseCache

    with errors():
        c = ResponseCache(cache)
        n = c.clear(model)
    out_console.print(f"removed {n} cached responses from {c.path}")
