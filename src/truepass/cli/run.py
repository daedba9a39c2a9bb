"""Run commands: run, judge, estimate."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table

from truepass.checkcache import OFF
from truepass.cli.common import (
    JobsOpt,
    OutOpt,
    RerunsOpt,
    SuiteOpt,
    TimeoutOpt,
    TransformOpt,
    err_console,
    errors,
    judge_config,
    load,
    out_console,
    progress,
)  # fmt: skip
from truepass.cli.tables import print_summary
from truepass.executors import EXECUTOR_HELP, ExecutorSpec, parse_executor
from truepass.judged import JudgeConfig
from truepass.runner import RunResult, run
from truepass.solvers import SOLVER_HELP, LLMOptions, make_solvers
from truepass.suites.loader import Suite, load_suite

M = "Models"
PromptOpt = Annotated[list[str] | None, typer.Option(
    "--prompt", help="Prompt variant: code-only, description, feedback (repeat for several).",
    rich_help_panel=M)]  # fmt: skip
SamplesOpt = Annotated[int, typer.Option(min=1, help="Attempts per sample (pass@k).",
                                         rich_help_panel=M)]  # fmt: skip
TempOpt = Annotated[float, typer.Option(min=0.0, help="Sampling temperature.", rich_help_panel=M)]
MaxTokOpt = Annotated[int, typer.Option(min=16, help="Completion token limit.", rich_help_panel=M)]
SeedOpt = Annotated[int, typer.Option(help="Base sampling seed (attempt i uses seed+i).",
                                      rich_help_panel=M)]  # fmt: skip
RoundsOpt = Annotated[int, typer.Option(min=1, help="Rounds of the feedback variant.",
                                        rich_help_panel=M)]  # fmt: skip
FaultOpt = Annotated[bool, typer.Option("--fault-hint", help="Show models the suite's fault "
    "lines (not comparable with runs without; recorded in the solver name).",
    rich_help_panel=M)]  # fmt: skip
TemplatesOpt = Annotated[Path | None, typer.Option("--templates", help="Directory of prompt "
    "templates overriding the bundled ones by file name.", rich_help_panel=M)]  # fmt: skip
PriceOpt = Annotated[list[str] | None, typer.Option("--price", help="MODEL=IN,OUT in USD per "
    "million input/output tokens (repeatable).", rich_help_panel=M)]  # fmt: skip
CacheOpt = Annotated[Path | None, typer.Option("--cache", help="Response cache file (default "
    "~/.cache/truepass/responses.sqlite or $TRUEPASS_CACHE).", rich_help_panel=M)]  # fmt: skip
NoCacheOpt = Annotated[bool, typer.Option("--no-cache", help="Neither read nor write the "
    "response cache.", rich_help_panel=M)]  # fmt: skip
SelectionOpt = Annotated[bool | None, typer.Option("--test-selection/--no-test-selection",
    help="Run the hidden tests related to the change first and stop at the first that fails "
    "(same verdicts; it first measures a coverage map per sample). Default: off.")]  # fmt: skip
ExecutorOpt = Annotated[str, typer.Option("--executor", help=EXECUTOR_HELP)]
CheckCacheOpt = Annotated[str | None, typer.Option("--check-cache", help="File of sample checks "
    "shared between runs on this machine (default ~/.cache/truepass/checks.sqlite or "
    "$TRUEPASS_CHECK_CACHE); 'off' checks every sample again in this run.")]  # fmt: skip
ModelCfgOpt = Annotated[Path | None, typer.Option("--model-config", help="TOML with per-model "
    "base_url, api_key_env, concurrency, retries, timeout.", rich_help_panel=M)]  # fmt: skip


def _llm(prompt: list[str] | None, samples: int, temperature: float, max_tokens: int, seed: int,
         rounds: int, fault_hint: bool, templates: Path | None, price: list[str] | None,
         cache: Path | None, no_cache: bool, model_config: Path | None) -> LLMOptions:  # fmt: skip
    return LLMOptions(
        variants=prompt or ["code-only"], samples=samples, temperature=temperature,
        max_tokens=max_tokens, seed=seed, rounds=rounds, given_fault=fault_hint,
        template_dir=templates, prices=price or [], cache_path=cache, use_cache=not no_cache,
        model_config=model_config,
    )  # fmt: skip


def _execute(suite: Suite, specs: list[str], out: Path, jobs: int, limit: int | None,
             config: JudgeConfig, llm: LLMOptions | None = None,
             executor: ExecutorSpec | str = "local",
             check_cache: str | None = None) -> RunResult:  # fmt: skip
    solvers = make_solvers(specs, {s.id for s in suite.samples}, llm)
    checks: Path | bool = True
    if check_cache is not None:
        checks = False if check_cache.strip().lower() in OFF else Path(check_cache)
    try:
        with progress() as update:
            return run(suite, solvers, out, config=config, jobs=jobs, limit=limit, progress=update,
                       executor=executor, check_cache=checks)  # fmt: skip
    except KeyboardInterrupt:
        err_console.print(
            f"interrupted: every attempt judged so far is stored in {out}/store.sqlite; "
            "run the same command again to finish the rest"
        )
        raise typer.Exit(130) from None


def _config(timeout: float, reruns: int, test_selection: bool | None) -> JudgeConfig:
    return judge_config(timeout, reruns).model_copy(update={"test_selection": test_selection})


def _report(result: RunResult, out: Path) -> None:
    print_summary(result.summary)
    resumed = f", {result.resumed_attempts} kept from before" if result.resumed_attempts else ""
    out_console.print(f"{result.new_attempts} attempts judged{resumed}; results in {out}/ "
                      "(results.jsonl, summary.json, manifest.json)")  # fmt: skip


def run_cmd(
    suite: SuiteOpt,
    solver: Annotated[list[str], typer.Option("--solver", help=SOLVER_HELP)],
    out: OutOpt = Path("runs/latest"),
    jobs: JobsOpt = 2,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N samples.")] = None,
    timeout: TimeoutOpt = 60.0,
    reruns: RerunsOpt = 1,
    test_selection: SelectionOpt = None,
    transform: TransformOpt = None,
    prompt: PromptOpt = None, samples: SamplesOpt = 1, temperature: TempOpt = 0.0,
    max_tokens: MaxTokOpt = 1024, seed: SeedOpt = 0, rounds: RoundsOpt = 3,
    fault_hint: FaultOpt = False, templates: TemplatesOpt = None, price: PriceOpt = None,
    cache: CacheOpt = None, no_cache: NoCacheOpt = False, model_config: ModelCfgOpt = None,
    executor: ExecutorOpt = "local", check_cache: CheckCacheOpt = None,
) -> None:  # fmt: skip
    """Run solvers on a suite; every attempt is judged in the sandbox and stored as it ends."""
    with errors():
        where = parse_executor(executor)
        llm = _llm(prompt, samples, temperature, max_tokens, seed, rounds, fault_hint, templates,
                   price, cache, no_cache, model_config)  # fmt: skip
        loaded = load(suite, transform)
        config = _config(timeout, reruns, test_selection)
        result = _execute(loaded, solver, out, jobs, limit, config, llm, where, check_cache)
    _report(result, out)


def judge_cmd(
    suite: SuiteOpt,
    patches: Annotated[Path, typer.Option(help="Patches JSONL (docs/patches-format.md).")],
    out: OutOpt = Path("runs/judge"),
    jobs: JobsOpt = 2,
    timeout: TimeoutOpt = 60.0,
    reruns: RerunsOpt = 1,
    test_selection: SelectionOpt = None,
    executor: ExecutorOpt = "local",
    check_cache: CheckCacheOpt = None,
) -> None:
    """Judge patches made elsewhere (the replay solver)."""
    with errors():
        where = parse_executor(executor)
        loaded = load_suite(suite)
        result = _execute(loaded, [f"replay:{patches}"], out, jobs, None,
                          _config(timeout, reruns, test_selection), executor=where,
                          check_cache=check_cache)  # fmt: skip
    _report(result, out)


def estimate_cmd(
    suite: SuiteOpt,
    solver: Annotated[list[str], typer.Option("--solver", help=SOLVER_HELP)],
    limit: Annotated[int, typer.Option(min=1, help="Samples to run for the estimate.")] = 10,
    out: OutOpt = Path("runs/estimate"),
    jobs: JobsOpt = 2,
    timeout: TimeoutOpt = 60.0,
    transform: TransformOpt = None,
    prompt: PromptOpt = None, samples: SamplesOpt = 1, temperature: TempOpt = 0.0,
    max_tokens: MaxTokOpt = 1024, seed: SeedOpt = 0, rounds: RoundsOpt = 3,
    fault_hint: FaultOpt = False, templates: TemplatesOpt = None, price: PriceOpt = None,
    cache: CacheOpt = None, no_cache: NoCacheOpt = False, model_config: ModelCfgOpt = None,
) -> None:  # fmt: skip
    """Run a few samples for real, then extrapolate tokens, cost and time to the whole suite."""
    from truepass.analysis.estimate import estimate

    with errors():
        llm = _llm(prompt, samples, temperature, max_tokens, seed, rounds, fault_hint, templates,
                   price, cache, no_cache, model_config)  # fmt: skip
        loaded = load(suite, transform)
        started = time.monotonic()
        result = _execute(loaded, solver, out, jobs, limit, judge_config(timeout, 0), llm)
        elapsed = time.monotonic() - started
        rows = estimate(out, loaded, min(limit, len(loaded.samples)), elapsed, llm.prices)
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
