"""``truepass build-rebuild``: the behavioural tests of a gold program, written as a rebuild task
(docs/rebuild-format.md)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from truepass.cli.common import err_console, errors, out_console, progress

SEEDS_HELP = (
    'JSON file of program-specific seeds: {"stdin": [TEXT], "args": [[ARG, ...]], '
    '"scripts": [TEXT], "files": {NAME: TEXT}} (every key optional). stdin texts join the '
    "standard inputs, args the argument lists tried, scripts are command scripts fed on stdin "
    "(the 'subcommands' tests, for programs like ed or bc), files are put in the directory of "
    "every run of a script or seeded argument list."
)


def build_rebuild_cmd(
    gold: Annotated[
        str, typer.Option("--gold", help="The gold program: a name on PATH or a path (rev).")
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Suite directory to write into.")],
    source_package: Annotated[
        str | None,
        typer.Option("--source-package", help="The Debian source package (checked with dpkg)."),
    ] = None,
    sample_id: Annotated[
        str | None, typer.Option("--id", help="Task id (default: the program's name).")
    ] = None,
    max_tests: Annotated[
        int, typer.Option("--max-tests", min=1, help="Most tests written for the task.")
    ] = 60,
    seed: Annotated[int, typer.Option(help="Seed of the mutations (same seed, same tests).")] = 0,
    seeds: Annotated[Path | None, typer.Option("--seeds", help=SEEDS_HELP)] = None,
    no_coverage: Annotated[
        bool,
        typer.Option(
            "--no-coverage",
            help="Choose tests by behaviour only, without an instrumented build of the gold.",
        ),
    ] = False,
    reruns: Annotated[
        int,
        typer.Option(
            "--reruns", min=1, help="Runs of the gold per candidate; all must agree to keep it."
        ),
    ] = 3,
    verify_runs: Annotated[
        int,
        typer.Option(
            "--verify-runs",
            min=1,
            help="Runs of the finished tests on the gold; a test failing any is dropped "
            "(gold-flaky). More runs catch rarer nondeterminism (a map's order).",
        ),
    ] = 6,
    loc: Annotated[
        int | None,
        typer.Option(
            "--loc",
            min=1,
            help="Lines of code of the program, when its source package cannot be fetched "
            "to count them.",
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", min=1.0, help="Seconds per run of the program in a test.")
    ] = 10.0,
) -> None:
    """Generate the hidden behavioural tests of a rebuild task from a gold program (an
    executable of a Debian package), recorded from the gold in the sandbox, grown while they add
    line coverage, checked by the assertion linter and against dummy programs, and write the task
    into OUT/suite.jsonl (its line replaced, others kept). Same gold and seed, same tests. See
    docs/rebuild-format.md.
    """
    with errors():
        from truepass.families.rebuild.generate import Settings, build_rebuild
        from truepass.families.rebuild.inputs import Seeds, load_seeds

        loaded = load_seeds(seeds) if seeds is not None else Seeds()
        settings = Settings(
            max_tests=max_tests, seed=seed, reruns=reruns, verify_runs=verify_runs,
            test_timeout_s=timeout,
            record_timeout_s=min(5.0, timeout / 2),
        )  # fmt: skip
        with progress() as update:
            built = build_rebuild(
                gold, out, sample_id=sample_id, source_package=source_package,
                settings=settings, seeds=loaded, coverage=not no_coverage, loc=loc,
                progress=update,
            )  # fmt: skip
    for note in built.notes:
        err_console.print(f"[yellow]note:[/] {escape(note)}", highlight=False)
    sample, gen = built.sample, built.sample.generation
    table = Table(title=f"{sample.id}: {sample.gold} ({sample.package.binary} "
                  f"{sample.package.version})", show_header=False)  # fmt: skip
    table.add_column("what")
    table.add_column("value")
    emitted = len(built.generated.names)
    table.add_row("tests", f"{gen.kept} kept of {emitted} written ({gen.candidates} candidates)")
    reasons = Counter(sample.ignore.values())
    table.add_row("ignored", ", ".join(f"{r}: {n}" for r, n in sorted(reasons.items())) or "none")
    dims = Counter(
        n.split("_")[1] for n in built.generated.names if f"{built.generated.file}::{n}"
        not in sample.ignore
    )  # fmt: skip
    table.add_row("kept by dimension", ", ".join(f"{d}: {n}" for d, n in dims.items()) or "-")
    if built.generated.dropped:
        dropped = ", ".join(f"{r}: {n}" for r, n in built.generated.dropped.items())
        table.add_row("candidates dropped", dropped)
    if gen.coverage is not None and gen.coverage_lines is not None:
        covered, total = gen.coverage_lines
        table.add_row("line coverage", f"{gen.coverage:.1%} ({covered}/{total} lines)")
    else:
        table.add_row("line coverage", "not measured")
    lint = ", ".join(f"{r}: {n}" for r, n in gen.lint_findings.items()) or "none"
    table.add_row("lint findings", lint)
    before = "-" if gen.dummy_pass_before is None else f"{gen.dummy_pass_before:.1%}"
    after = "-" if gen.dummy_pass_after is None else f"{gen.dummy_pass_after:.1%}"
    table.add_row("dummy pass", f"{before} before filtering, {after} after")
    table.add_row("loc / dependencies", f"{sample.loc} / {sample.dependencies}")
    table.add_row("seconds", f"{gen.seconds:.1f}")
    out_console.print(table)
    out_console.print(f"written to {escape(str(built.suite_jsonl))}", highlight=False)
