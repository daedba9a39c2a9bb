"""Run commands: run, judge, estimate."""

from __future__ import annotations

import gc
import time
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table

from truepass.cli.common import (
    CheckCacheOpt,
    ExecutorOpt,
    JobsOpt,
    OutOpt,
    RerunsOpt,
    SuiteOpt,
    TimeoutOpt,
    TransformOpt,
    check_cache_setting,
    err_console,
    errors,
    import_errors,
    judge_config,
    load,
    out_console,
    progress,
)  # fmt: skip
from truepass.cli.model_options import model_options
from truepass.cli.tables import print_summary
from truepass.errors import InputError
from truepass.executors import ExecutorSpec, parse_executor
from truepass.judged import JudgeConfig
from truepass.runner import RunResult, run
from truepass.solvers import SolverOptions, make_solvers
from truepass.solvers.registry import spec_help
from truepass.suites.loader import Suite, load_suite
from truepass.suites.split import DEFAULT_DEV_SHARE, Split, SplitSpec

with import_errors():  # a broken plug-in: one clear error, exit 2
    SOLVER_HELP = spec_help()
SolverOpt = Annotated[list[str], typer.Option("--solver", help=SOLVER_HELP)]
SelectionOpt = Annotated[bool | None, typer.Option("--test-selection/--no-test-selection",
    help="Run the hidden tests related to the change first and stop at the first that fails "
    "(same verdicts; it first measures a coverage map per sample). Default: off.")]  # fmt: skip
DifferentialOpt = Annotated[bool | None, typer.Option("--differential/--no-differential",
    help="Repair: compare each test-passing patch with the reference fix on replayed and "
    "mutated calls (one more sandboxed test run each; flag differs-from-reference). "
    "Default: on.")]  # fmt: skip

FamilyOpt = Annotated[list[str] | None, typer.Option("--family-option", metavar="KEY=VALUE",
    help="An option of the suite's family (repeatable): review and patch-correctness take "
    "positive=LABEL, the positive class of precision, recall and F1 (review's default: accept, "
    "as in CL4SE); repair takes weights=W1,W2,W3,W4, a custom composite of the pyramid's "
    "layers. Recorded in the manifest and the summary.")]  # fmt: skip

SplitOpt = Annotated[Split | None, typer.Option("--split", help="Run one split of the suite: "
    "dev (tune prompts and settings here) or test (report here); a sample's split is a hash of "
    "its id (docs/cli.md). Recorded in the manifest.")]  # fmt: skip
DevShareOpt = Annotated[float, typer.Option("--dev-share", min=0.01, max=0.99,
    help="The share of samples in the dev split (with --split).")]  # fmt: skip


def family_options(given: list[str] | None) -> dict[str, str]:
    """``["positive=reject"]`` -> ``{"positive": "reject"}``; an input error for an item
    without ``=``."""
    out: dict[str, str] = {}
    for item in given or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InputError(f"'{item}' is not KEY=VALUE", field="--family-option")
        out[key.strip()] = value.strip()
    return out


def _execute(suite: Suite, specs: list[str], out: Path, jobs: int, limit: int | None,
             config: JudgeConfig, options: SolverOptions | None = None,
             executor: ExecutorSpec | str = "local",
             check_cache: str | None = None,
             family: dict[str, str] | None = None,
             split: SplitSpec | None = None) -> RunResult:  # fmt: skip
    solvers = make_solvers(specs, {s.id for s in suite.samples}, options)
    # What this process holds now (its modules, the suite, the solvers) outlives the run:
    # frozen, the collector does not walk it again while thousands of attempts are judged (a
    # third less time in collections on HumanEval's 3,280); collectable again afterwards
    gc.freeze()
    try:
        with progress() as update:
            return run(suite, solvers, out, config=config, jobs=jobs, limit=limit, progress=update,
                       executor=executor, check_cache=check_cache_setting(check_cache),
                       family_options=family, split=split)  # fmt: skip
    except KeyboardInterrupt:
        err_console.print(
            f"interrupted: every attempt judged so far is stored in {out}/store.sqlite; "
            "run the same command again to finish the rest"
        )
        raise typer.Exit(130) from None
    finally:
        gc.unfreeze()


def _config(
    timeout: float, reruns: int, test_selection: bool | None, differential: bool | None = None
) -> JudgeConfig:
    # True is the default (None): kept as None so that manifests and run keys stay as they were
    off = False if differential is False else None
    update = {"test_selection": test_selection, "differential": off}
    return judge_config(timeout, reruns).model_copy(update=update)


def _report(result: RunResult, out: Path) -> None:
    print_summary(result.summary)
    resumed = f", {result.resumed_attempts} kept from before" if result.resumed_attempts else ""
    out_console.print(f"{result.new_attempts} attempts judged{resumed}; results in {out}/ "
                      "(results.jsonl, summary.json, manifest.json)")  # fmt: skip


@model_options
def run_cmd(
    suite: SuiteOpt,
    solver: SolverOpt,
    out: OutOpt = Path("runs/latest"),
    jobs: JobsOpt = 2,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N samples.")] = None,
    timeout: TimeoutOpt = 60.0,
    reruns: RerunsOpt = 1,
    test_selection: SelectionOpt = None,
    differential: DifferentialOpt = None,
    transform: TransformOpt = None,
    executor: ExecutorOpt = "local",
    check_cache: CheckCacheOpt = None,
    family_option: FamilyOpt = None,
    split: SplitOpt = None,
    dev_share: DevShareOpt = DEFAULT_DEV_SHARE,
    *,
    options: SolverOptions,
) -> None:
    """Run solvers on a suite; every attempt is judged in the sandbox and stored as it ends."""
    with errors():
        where = parse_executor(executor)
        loaded = load(suite, transform)
        config = _config(timeout, reruns, test_selection, differential)
        chosen = family_options(family_option)
        one = None if split is None else SplitSpec(split=split, dev_share=dev_share)
        result = _execute(
            loaded, solver, out, jobs, limit, config, options, where, check_cache, chosen, one
        )
    _report(result, out)


def judge_cmd(
    suite: SuiteOpt,
    patches: Annotated[
        list[Path],
        typer.Option(
            help="Patches file: truepass's JSONL or SWE-bench predictions (JSONL, a JSON list, or "
            "preds.json keyed by instance id); repeat for several (docs/patches-format.md)."
        ),
    ],
    out: OutOpt = Path("runs/judge"),
    jobs: JobsOpt = 2,
    timeout: TimeoutOpt = 60.0,
    reruns: RerunsOpt = 1,
    test_selection: SelectionOpt = None,
    differential: DifferentialOpt = None,
    executor: ExecutorOpt = "local",
    check_cache: CheckCacheOpt = None,
) -> None:
    """Judge patches made elsewhere (the replay solver)."""
    with errors():
        where = parse_executor(executor)
        loaded = load_suite(suite)
        result = _execute(loaded, [f"replay:{p}" for p in patches], out, jobs, None,
                          _config(timeout, reruns, test_selection, differential), executor=where,
                          check_cache=check_cache)  # fmt: skip
    _report(result, out)


@model_options
def estimate_cmd(
    suite: SuiteOpt,
    solver: SolverOpt,
    limit: Annotated[int, typer.Option(min=1, help="Samples to run for the estimate.")] = 10,
    out: OutOpt = Path("runs/estimate"),
    jobs: JobsOpt = 2,
    timeout: TimeoutOpt = 60.0,
    transform: TransformOpt = None,
    *,
    options: SolverOptions,
) -> None:
    """Run a few samples for real, then extrapolate tokens, cost and time to the whole suite."""
    from truepass.analysis.estimate import estimate

    with errors():
        loaded = load(suite, transform)
        started = time.monotonic()
        result = _execute(loaded, solver, out, jobs, limit, judge_config(timeout, 0), options)
        elapsed = time.monotonic() - started
        rows = estimate(
            out, loaded, min(limit, len(loaded.samples)), elapsed, options.models.prices
        )
    table = Table(title=f"estimate for all {len(loaded.samples)} samples of {loaded.name} "
                  f"(from {min(limit, len(loaded.samples))})", box=box.SIMPLE_HEAD)  # fmt: skip
    for col in ("solver", "attempts", "prompt tok", "completion tok", "cost $", "time"):
        table.add_column(col, justify="left" if col == "solver" else "right")
    for r in rows:
        table.add_row(
            r.solver, str(r.attempts), f"{r.prompt_tokens:,.0f}", f"{r.completion_tokens:,.0f}",
            "?" if r.cost_usd is None else f"{r.cost_usd:.2f}", f"{r.wall_s / 60:.1f} min",
        )  # fmt: skip
    out_console.print(table)
    out_console.print(f"measured on {result.new_attempts} new attempts in {elapsed:.0f} s "
                      "(cached answers count as fresh for cost; time is this run's, scaled)",
                      style="dim")  # fmt: skip
