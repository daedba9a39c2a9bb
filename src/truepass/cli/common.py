"""Consoles, error handling, progress and shared options of the command line."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from truepass.errors import InputError, TruepassError

if TYPE_CHECKING:  # imported by the commands that use them, so that each imports what it needs
    from truepass.judged import JudgeConfig
    from truepass.suites.loader import Suite

# Piped output (logs, CI) gets room for whole solver names; a terminal keeps its own width.
out_console = Console() if sys.stdout.isatty() else Console(width=140)
err_console = Console(stderr=True)

SuiteOpt = Annotated[
    str, typer.Option("--suite", "-s", help="Bundled suite name, path, or FORMAT:PATH.")
]
OutOpt = Annotated[Path, typer.Option("--out", "-o", help="Run directory (resumable).")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", min=1, help="Sandboxed jobs run at once "
    "(attempts judged, samples checked, inputs run): the pool size.")]  # fmt: skip
TimeoutOpt = Annotated[
    float, typer.Option("--timeout", min=1.0, help="Seconds per test run before it is killed.")
]
TransformOpt = Annotated[
    str | None,
    typer.Option(
        "--transform",
        help="Rewrite the suite first with a transform of its family: "
        "'obfuscate' for repair suites (the leakage probe).",
    ),
]
RERUNS_HELP = "Extra runs of a passing answer, to detect flakiness"
RerunsOpt = Annotated[
    int, typer.Option("--reruns", min=0, help=f"{RERUNS_HELP} (each passing attempt).")
]
CheckRerunsOpt = Annotated[int, typer.Option("--reruns", min=1, help=f"{RERUNS_HELP} (here the "
    "reference answer; default 2, one more than a run, so that an unstable reference shows up "
    "as flaky).")]  # fmt: skip
EXECUTOR_HELP = (
    "Where attempts are judged: local (this machine, --jobs threads), dask://HOST[:PORT] (the "
    "workers of a Dask scheduler, docs/scale-out.md; dask+tls://HOST[:PORT] with mutual TLS) "
    "or dask-local:N (N local worker processes)."
)
ExecutorOpt = Annotated[str, typer.Option("--executor", help=EXECUTOR_HELP)]
CheckCacheOpt = Annotated[str | None, typer.Option("--check-cache", help="File of sample checks "
    "shared between runs on this machine (default ~/.cache/truepass/checks.sqlite or "
    "$TRUEPASS_CHECK_CACHE); 'off' checks every sample again.")]  # fmt: skip


def check_cache_setting(value: str | None) -> Path | bool:
    """``--check-cache`` as the back end takes it: True (the default file), False (``off``) or
    the file given."""
    from truepass.checkcache import OFF

    if value is None:
        return True
    return False if value.strip().lower() in OFF else Path(value)


def print_error(exc: Exception) -> None:
    err_console.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)


@contextmanager
def errors() -> Iterator[None]:
    """Bad input exits 2 with its message; other truepass errors exit 1."""
    try:
        yield
    except InputError as exc:
        print_error(exc)
        raise typer.Exit(2) from None
    except TruepassError as exc:
        print_error(exc)
        raise typer.Exit(1) from None


@contextmanager
def import_errors() -> Iterator[None]:
    """:func:`errors` for what runs while the CLI is put together (a plug-in's commands or
    options): typer is not running yet, so the exit is Python's own."""
    try:
        yield
    except InputError as exc:
        print_error(exc)
        raise SystemExit(2) from None


@contextmanager
def progress() -> Iterator[Callable[[str, int, int], None]]:
    """A progress bar per stage on stderr; yields ``update(stage, done, total)``."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
    )
    tasks: dict[str, int] = {}

    def update(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(stage, total=total)
        bar.update(tasks[stage], completed=done, total=total)

    with bar:
        yield update


def judge_config(timeout: float, reruns: int) -> JudgeConfig:
    from truepass.judged import JudgeConfig
    from truepass.sandbox import Limits

    return JudgeConfig(limits=Limits(timeout_s=timeout), reruns=reruns)


def load(suite_ref: str, transform: str | None = None) -> Suite:
    """Load a suite by name or path, optionally transformed by one of its family's transforms
    (repair's ``obfuscate``, the leakage probe)."""
    from truepass.families import registry
    from truepass.suites.loader import load_suite

    suite = load_suite(suite_ref)
    if transform:
        known = registry.get(suite.family).transforms()
        if transform not in known:
            raise InputError(
                f"unknown transform '{transform}' for {suite.family} suites (known: "
                f"{', '.join(known) or 'none'})",
                field="--transform",
            )
        suite = known[transform](suite)
    return suite
