"""The ``truepass`` command: the only place that parses arguments and prints."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from truepass.analysis.summary import Rates, Summary
from truepass.errors import InputError, TruepassError
from truepass.judges.repair import JudgeConfig
from truepass.sandbox import Limits
from truepass.solvers import SOLVER_HELP, make_solver
from truepass.suites.loader import Suite, bundled_suites, load_suite

app = typer.Typer(
    help="Evaluate code-producing systems with verdicts a fake fix cannot fool.",
    no_args_is_help=True,
    add_completion=False,
)
out_console = Console()
err_console = Console(stderr=True)

SuiteArg = Annotated[str, typer.Option("--suite", "-s", help="Bundled suite name or path.")]
OutOpt = Annotated[Path, typer.Option("--out", "-o", help="Run directory (resumable).")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", min=1, help="Attempts judged in parallel.")]
TimeoutOpt = Annotated[
    float, typer.Option("--timeout", min=1.0, help="Seconds per test run before it is killed.")
]
RerunsOpt = Annotated[
    int, typer.Option("--reruns", min=0, help="Extra runs of a passing attempt (flakiness).")
]


def _print_error(exc: Exception) -> None:
    err_console.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)


@contextmanager
def _errors() -> Iterator[None]:
    """Bad input exits 2 with its message; other truepass errors exit 1."""
    try:
        yield
    except InputError as exc:
        _print_error(exc)
        raise typer.Exit(2) from None
    except TruepassError as exc:
        _print_error(exc)
        raise typer.Exit(1) from None


@contextmanager
def _progress() -> Iterator[object]:
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=False,
    )
    tasks: dict[str, int] = {}

    def update(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(stage, total=total)
        bar.update(tasks[stage], completed=done, total=total)

    with bar:
        yield update


def _config(timeout: float, reruns: int) -> JudgeConfig:
    return JudgeConfig(limits=Limits(timeout_s=timeout), reruns=reruns)


def _rate(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def print_summary(summary: Summary) -> None:
    """The readable table of a run ("plausible" = passes the visible tests)."""
    table = Table(title=f"truepass: {summary.suite}", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("solver", overflow="fold")
    for col in ("n", "correct", "overfit", "plaus.", "fails", "other", "correct%", "plaus.%"):
        table.add_column(col, justify="right", no_wrap=True)
    for s in summary.solvers:
        r: Rates = s.overall
        v = r.verdicts
        other = r.counted - r.plausible - v.get("fails-visible", 0)
        table.add_row(
            s.solver,
            str(r.counted),
            str(r.correct),
            str(v.get("overfit", 0)),
            str(r.plausible),
            str(v.get("fails-visible", 0)),
            str(other),
            _rate(r.correct_rate),
            _rate(r.plausible_rate),
        )
    out_console.print(table)
    out_console.print(
        "n: attempts counted (invalid samples and infra errors excluded); plaus.: passes the "
        "visible tests (correct + overfit + plausible); other: broken, timeout, apply-failed, "
        "no-patch",
        style="dim",
    )
    for s in summary.solvers:
        if s.flags:
            flags = ", ".join(f"{k} {n}" for k, n in s.flags.items())
            out_console.print(f"{s.solver} flags: {flags}")
        if s.invalid_samples:
            out_console.print(f"{s.solver}: {len(s.invalid_samples)} invalid samples excluded: "
                              f"{', '.join(s.invalid_samples[:10])}")  # fmt: skip
        if s.infra_errors:
            out_console.print(f"[yellow]{s.solver}: {len(s.infra_errors)} infra errors (not "
                              "counted; rerun the same command to retry them)[/]")  # fmt: skip


def _run(suite: Suite, solvers: list[str], out: Path, jobs: int, limit: int | None,
         config: JudgeConfig) -> None:  # fmt: skip
    from truepass.runner import run

    ids = {s.id for s in suite.samples}
    built = [make_solver(spec, ids) for spec in solvers]
    try:
        with _progress() as update:
            result = run(suite, built, out, config=config, jobs=jobs, limit=limit, progress=update)
    except KeyboardInterrupt:
        err_console.print(
            f"interrupted: every attempt judged so far is stored in {out}/store.sqlite; "
            "run the same command again to finish the rest"
        )
        raise typer.Exit(130) from None
    print_summary(result.summary)
    resumed = f", {result.resumed_attempts} kept from before" if result.resumed_attempts else ""
    out_console.print(f"{result.new_attempts} attempts judged{resumed}; results in {out}/ "
                      "(results.jsonl, summary.json, manifest.json)")  # fmt: skip


@app.command("run")
def run_cmd(
    suite: SuiteArg,
    solver: Annotated[list[str], typer.Option("--solver", help=SOLVER_HELP)],
    out: OutOpt = Path("runs/latest"),
    jobs: JobsOpt = 2,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N samples.")] = None,
    timeout: TimeoutOpt = 60.0,
    reruns: RerunsOpt = 1,
) -> None:
    """Run solvers on a suite; every attempt is judged in the sandbox and stored as it ends."""
    with _errors():
        _run(load_suite(suite), solver, out, jobs, limit, _config(timeout, reruns))


@app.command("judge")
def judge_cmd(
    suite: SuiteArg,
    patches: Annotated[Path, typer.Option(help="Patches JSONL (docs/patches-format.md).")],
    out: OutOpt = Path("runs/judge"),
    jobs: JobsOpt = 2,
    timeout: TimeoutOpt = 60.0,
    reruns: RerunsOpt = 1,
) -> None:
    """Judge patches made elsewhere (the replay solver)."""
    with _errors():
        _run(load_suite(suite), [f"replay:{patches}"], out, jobs, None, _config(timeout, reruns))


@app.command("check-suite")
def check_suite_cmd(
    suite: Annotated[str, typer.Argument(help="Bundled suite name or path.")],
    jobs: JobsOpt = 2,
    timeout: TimeoutOpt = 60.0,
    reruns: Annotated[int, typer.Option(min=1, help="Reruns of the reference fix.")] = 2,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write a report.")] = None,
) -> None:
    """Validate a suite: buggy code fails, reference fix passes stably, overfit patches overfit.

    Exits 1 when any sample has a problem.
    """
    from truepass.checking import check_suite

    with _errors():
        loaded = load_suite(suite)
        with _progress() as update:
            health = check_suite(
                loaded, config=_config(timeout, reruns), jobs=jobs, progress=update
            )
    if json_out:
        json_out.write_text(health.model_dump_json(indent=2) + "\n", encoding="utf-8")
    for s in health.problems:
        text = f"[red]{escape(s.sample_id)}[/]: " + escape("; ".join(s.problems))
        out_console.print(text, highlight=False, soft_wrap=True)
    n = len(health.samples)
    overfits = sum(s.known_overfit == "overfit" for s in health.samples)
    with_overfit = sum(s.known_overfit is not None for s in health.samples)
    out_console.print(
        f"{loaded.name}: {n} samples, {health.valid} valid, {len(health.problems)} with problems; "
        f"known_overfit judged overfit {overfits}/{with_overfit}; sandbox {health.sandbox_tier}"
    )
    if health.problems:
        raise typer.Exit(1)


@app.command("suites")
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


@app.command("summary")
def summary_cmd(out: Annotated[Path, typer.Argument(help="A run directory.")]) -> None:
    """Print the summary table of a finished run."""
    with _errors():
        path = out / "summary.json"
        if not path.is_file():
            raise InputError(
                "no summary.json here: not a finished run directory", location=str(out)
            )
        print_summary(Summary.model_validate(json.loads(path.read_text(encoding="utf-8"))))


def main() -> None:  # pragma: no cover - console entry point helper
    app(sys.argv[1:])


if __name__ == "__main__":  # pragma: no cover
    main()
