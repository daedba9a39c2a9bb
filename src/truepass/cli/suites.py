"""Suite commands: check-suite, suites, and summary of a run directory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from truepass.cli.common import (
    CheckCacheOpt,
    CheckRerunsOpt,
    ExecutorOpt,
    JobsOpt,
    SuiteOpt,
    TimeoutOpt,
    TransformOpt,
    check_cache_setting,
    errors,
    judge_config,
    load,
    out_console,
    print_error,
    progress,
)  # fmt: skip
from truepass.errors import InputError


def check_suite_cmd(
    suite: SuiteOpt,
    jobs: JobsOpt = 2,
    timeout: TimeoutOpt = 60.0,
    reruns: CheckRerunsOpt = 2,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write a report.")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Directory for health.json and "
        "health.md (default: the suite directory, when the suite is one).")] = None,
    allow_invalid: Annotated[bool, typer.Option("--allow-invalid", help="Exit 0 when the only "
        "problems are samples whose buggy code already passes the visible tests.")] = False,
    transform: TransformOpt = None,
    executor: ExecutorOpt = "local",
    check_cache: CheckCacheOpt = None,
) -> None:  # fmt: skip
    """Validate a suite: each sample's check passes (e.g. a repair sample's buggy code fails, its
    reference fix passes), the reference answer passes stably and the null answer does not.

    Writes health.json and health.md into the suite directory (or --out). Exits 1 when any
    sample has a problem (with --allow-invalid, unless all of them are invalid samples).
    """
    from truepass.checking import check_suite, write_health
    from truepass.executors import parse_executor
    from truepass.vocabulary import CheckStatus

    with errors():
        spec = parse_executor(executor)
        loaded = load(suite, transform)
        with progress() as update:
            health = check_suite(loaded, config=judge_config(timeout, reruns), jobs=jobs,
                                 executor=spec, check_cache=check_cache_setting(check_cache),
                                 progress=update)  # fmt: skip
    if json_out:
        json_out.write_text(health.model_dump_json(indent=2) + "\n", encoding="utf-8")
    for s in health.problems:
        text = f"[red]{escape(s.sample_id)}[/] ({s.status}): " + escape("; ".join(s.problems))
        out_console.print(text, highlight=False, soft_wrap=True)
    for s in health.samples:
        for warning in s.warnings:
            out_console.print(f"[yellow]{escape(s.sample_id)}[/]: {escape(warning)}",
                              highlight=False, soft_wrap=True)  # fmt: skip
    n, c = len(health.samples), health.counts
    kinds = ", ".join(f"{c[k]} {k}" for k in CheckStatus if k is not CheckStatus.OK and c[k])
    overfit = c["known_overfit"]  # repair samples may carry a known_overfit patch
    out_console.print(
        f"{loaded.name}: {n} samples, {health.valid} valid, {len(health.problems)} with problems"
        + (f" ({kinds})" if kinds else "")
        + (f"; known_overfit judged overfit {c['known_overfit_overfit']}/{overfit}" if overfit
           else "")
        + f"; sandbox {health.sandbox_tier}"
    )  # fmt: skip
    where = out or (_suite_dir(suite, loaded.path) if transform is None else None)
    if where is not None:
        try:
            paths = write_health(health, where)
        except OSError as exc:
            print_error(InputError(f"cannot write the health report: {exc}", location=str(where)))
        else:
            out_console.print(f"health report: {paths[0]} and {paths[1].name}")
    raise typer.Exit(health.exit_code(allow_invalid=allow_invalid))


def _suite_dir(ref: str, path: Path) -> Path | None:
    """The suite's own directory, when it was given as one (not bundled, not FORMAT:PATH)."""
    from truepass.suites.shipped import bundled_dir

    if not Path(ref).is_dir() or not (path / "suite.jsonl").is_file():
        return None
    if path.resolve().is_relative_to(bundled_dir().resolve()):
        return None
    return path


def suites_cmd() -> None:
    """List the bundled suites, and the public benchmarks read through adapters."""
    from truepass.suites.listing import listing

    bundled, formats = listing()
    table = Table(title="bundled suites (--suite NAME)")
    for col in ("name", "version", "samples", "defect types", "description"):
        table.add_column(col)
    for row in bundled:
        table.add_row(*row)
    out_console.print(table)
    table = Table(title="public benchmarks (--suite FORMAT:PATH, or truepass import; "
                  "docs/adapters.md)")  # fmt: skip
    for col in ("format", "PATH", "without a path"):
        table.add_column(col)
    for row in formats:
        table.add_row(*row)
    out_console.print(table)


def summary_cmd(out: Annotated[Path, typer.Argument(help="A run directory.")]) -> None:
    """Print the summary table of a finished run."""
    from truepass.analysis.summary import Summary
    from truepass.cli.tables import print_summary

    with errors():
        path = out / "summary.json"
        if not path.is_file():
            raise InputError("no summary.json: not a finished run directory", location=str(out))
        print_summary(Summary.model_validate(json.loads(path.read_text(encoding="utf-8"))))


def import_cmd(
    fmt: Annotated[
        str,
        typer.Argument(
            metavar="FORMAT",
            help="quixbugs | humanevalfix | swebench | humaneval | review (`truepass suites` "
            "lists what each reads)",
        ),
    ],
    path: Annotated[Path, typer.Argument(help="The benchmark's data file or directory.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Suite directory to write.")],
) -> None:
    """Turn a public benchmark into a suite directory (suite.jsonl + suite.toml)."""
    from truepass.suites.loader import load_adapted, write_suite_dir

    with errors():
        suite = load_adapted(fmt, path)
        write_suite_dir(suite, out)
    out_console.print(f"{suite.name}: {len(suite.samples)} samples written to {out}/")
