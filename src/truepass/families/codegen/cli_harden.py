"""``truepass harden``: grow a codegen suite's hidden tests, or report pass@1 visible -> all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from truepass.cli.common import JobsOpt, errors, load, out_console, progress
from truepass.errors import InputError

MAX_ROWS = 40


def harden_cmd(
    suite: Annotated[
        str | None, typer.Option("--suite", "-s", help="Codegen suite name or path.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Suite directory to write.")
    ] = None,
    per_problem: Annotated[
        int, typer.Option("--per-problem", min=1, help="Inputs generated per problem.")
    ] = 100,
    seed: Annotated[int, typer.Option(help="Seed of input generation and mutant choice.")] = 0,
    limit: Annotated[
        int | None, typer.Option(min=1, help="Harden only the first N problems.")
    ] = None,
    mutants: Annotated[int, typer.Option("--mutants", min=1, help="Mutants per problem.")] = 120,
    time_bound: Annotated[
        float, typer.Option("--time-bound", min=0.05, help="CPU seconds per input.")
    ] = 1.0,
    jobs: JobsOpt = 2,
    report: Annotated[
        Path | None,
        typer.Option("--report", help="A run directory: print pass@1 visible -> hardened."),
    ] = None,
) -> None:
    """Add hidden tests that bite to a codegen suite (type-aware input mutation, the canonical
    solution as oracle, minimised against mutants of it). See docs/harden.md.

    With --report RUN_DIR instead: per solver, pass@1 on the visible tests and on all tests
    (for a run on a hardened suite: the drop the added tests cause).
    """
    if report is not None:
        with errors():
            print_drop(report)
        return
    with errors():
        if suite is None or out is None:
            raise InputError("--suite and --out are required (or --report RUN_DIR)")
        from truepass.families.codegen.harden import HardenConfig, harden_suite
        from truepass.suites.loader import write_suite_dir

        loaded = load(suite)
        config = HardenConfig(per_problem=per_problem, seed=seed, max_mutants=mutants,
                              time_bound_s=time_bound, workers=jobs)  # fmt: skip
        with progress() as update:
            hardened, result = harden_suite(loaded, config, limit=limit, progress=update)
        write_suite_dir(hardened, out)
        data = result.model_dump(mode="json")
        data["totals"] = result.totals()
        (out / "harden.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    _print_report(result)
    out_console.print(f"{hardened.name}: {len(hardened.samples)} samples written to {out}/ "
                      f"(harden.json beside them)")  # fmt: skip


def _print_report(result: object) -> None:
    from truepass.families.codegen.harden import HardenReport

    assert isinstance(result, HardenReport)
    table = Table(title=f"truepass harden: {result.suite}", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("problem", overflow="fold")
    for col in ("generated", "kept", "mutants", "killed vis.", "killed hard.", "added"):
        table.add_column(col, justify="right", no_wrap=True)
    rows = sorted(result.problems, key=lambda p: (-p.added_after, p.sample_id))
    for p in rows[:MAX_ROWS]:
        if p.status != "hardened":
            table.add_row(escape(p.sample_id), f"[yellow]{escape(p.status)}[/]", *[""] * 5)
            continue
        table.add_row(
            escape(p.sample_id), str(p.generated), str(p.kept), str(p.mutants),
            str(p.killed_visible), str(p.killed_hardened), str(p.added_after),
        )  # fmt: skip
    t = result.totals()
    table.add_row(
        "[bold]total[/]", str(t["generated"]), str(t["kept"]), str(t["mutants"]),
        str(t["killed_visible"]), str(t["killed_hardened"]), str(t["added_after"]),
        end_section=True,
    )  # fmt: skip
    out_console.print(table)
    more = len(rows) - MAX_ROWS
    out_console.print(
        (f"{more} more problems in harden.json; " if more > 0 else "")
        + "kept: generated inputs on which the canonical solution runs twice to the same value "
        "in time (the added set before minimisation); killed vis./hard.: mutants of the "
        "canonical solution failing the visible / visible + kept cases; added: hidden cases "
        "added (the kept ones minimised against the mutants)",
        style="dim",
    )
    invalid = [p for p in result.problems if p.status != "hardened"]
    for p in invalid[:10]:
        out_console.print(f"[yellow]{escape(p.sample_id)}[/]: left as it was: "
                          f"{escape(p.reason)}", highlight=False, soft_wrap=True)  # fmt: skip
    out_console.print(
        f"{t['hardened']}/{t['problems']} problems hardened, {t['added_after']} hidden cases "
        f"added; mutants killed {t['killed_visible']} by the visible cases, "
        f"{t['killed_hardened']} with the added ones (of {t['mutants']}); {result.duration_s:.0f} s"
    )


def print_drop(run_dir: Path) -> None:
    """Per solver: pass@1 on the visible cases -> on every case, the drop, and the problems
    where it lost (see :mod:`truepass.families.codegen.harden.drop`)."""
    from truepass.families.codegen.harden.drop import pass_at_1_drop
    from truepass.records import read_results

    records = read_results(run_dir)
    rows = pass_at_1_drop(records)
    suite = records[0].suite
    table = Table(title=f"pass@1 visible -> hardened: {suite}", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("solver", overflow="fold")
    for col in ("samples", "visible", "hardened", "drop", "lost on"):
        table.add_column(col, justify="right", no_wrap=True)
    for r in rows:
        table.add_row(escape(r.solver), str(r.samples), _pct(r.visible), _pct(r.hardened),
                      f"{100 * r.drop:.1f} pts", str(len(r.lost)))  # fmt: skip
    out_console.print(table)
    out_console.print(
        "visible: pass@1 on the visible cases only; hardened: on every case (visible + hidden; "
        "a problem without hidden cases counts as passed when its visible cases pass); lost on: "
        "problems where an attempt passes the visible cases and fails a hidden one",
        style="dim",
    )
    for r in rows:
        if r.lost:
            shown = ", ".join(r.lost[:12]) + (" ..." if len(r.lost) > 12 else "")
            out_console.print(f"{escape(r.solver)} lost on: {escape(shown)}", highlight=False)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"
