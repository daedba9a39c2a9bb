"""``truepass explain``: explanations of codegen problems' reference solutions, by a model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from truepass.cli.common import errors, load, out_console, progress

SHOWN_FAILED = 5


def explain_cmd(
    suite: Annotated[str, typer.Option("--suite", "-s", help="Codegen suite name or path.")],
    solver: Annotated[
        str, typer.Option("--solver", help="The model: openai:NAME, local:smollm2, local:F.gguf.")
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Suite directory to write.")],
    overwrite: Annotated[
        bool,
        typer.Option("--overwrite", help="Explain problems that already carry an explanation."),
    ] = False,
    limit: Annotated[
        int | None,
        typer.Option(min=1, help="Ask for at most N explanations (the first problems without)."),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Requests in flight.")] = 1,
    temperature: Annotated[float, typer.Option(min=0.0, help="Sampling temperature.")] = 0.0,
    max_tokens: Annotated[int, typer.Option(min=16, help="Completion token limit.")] = 256,
    seed: Annotated[int, typer.Option(help="Sampling seed.")] = 0,
    templates: Annotated[
        Path | None,
        typer.Option(
            "--templates",
            help="Directory of prompt templates overriding the bundled "
            "ones by file name (codegen-explain.j2).",
        ),
    ] = None,
    cache: Annotated[
        Path | None,
        typer.Option(
            "--cache",
            help="Response cache file (default "
            "~/.cache/truepass/responses.sqlite or $TRUEPASS_CACHE).",
        ),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Neither read nor write the response cache.")
    ] = False,
    model_config: Annotated[
        Path | None,
        typer.Option(
            "--model-config",
            help="TOML with per-model base_url, api_key_env, concurrency, retries, timeout.",
        ),
    ] = None,
) -> None:
    """Ask a model for the reasoning and strategy behind each problem's reference solution and
    write the suite with them (field `explanation`), for explained demonstrations: `truepass run
    --suite OUT --shots 1 --context explained`. Answers come from the response cache when
    asked before, so running it again asks only for what is missing. See docs/codegen-format.md.
    """
    with errors():
        from truepass.families.codegen.explain import explain_suite, require_codegen
        from truepass.models.base import GenerationParams, preflight_models
        from truepass.solvers.llm_factory import llm_model
        from truepass.solvers.settings import LLMOptions
        from truepass.suites.loader import write_suite_dir

        loaded = load(suite)
        require_codegen(loaded)
        options = LLMOptions(cache_path=cache, use_cache=not no_cache, model_config=model_config)
        model = llm_model(solver, options)
        preflight_models([model])
        params = GenerationParams(temperature=temperature, max_tokens=max_tokens, seed=seed)
        with progress() as update:
            derived, report = explain_suite(
                loaded, model, params, template_dir=templates, overwrite=overwrite, limit=limit,
                jobs=jobs, progress=update,
            )  # fmt: skip
        write_suite_dir(derived, out)
        (out / "explain.json").write_text(
            json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8"
        )
    out_console.print(
        f"{derived.name}: {report.explained} of {report.problems} problems explained by "
        f"{escape(report.model)}"
        + (f", {report.kept} kept their own" if report.kept else "")
        + (f", {len(report.failed)} without" if report.failed else "")
        + f" ({report.prompt_tokens} prompt and {report.completion_tokens} completion tokens, "
        f"{report.cached} answers from the cache, {report.duration_s:.0f} s); written to {out}/ "
        "(explain.json beside it)",
        highlight=False,
    )
    for sample_id, why in list(report.failed.items())[:SHOWN_FAILED]:
        out_console.print(f"[yellow]{escape(sample_id)}[/]: {escape(why)}", highlight=False)
    if len(report.failed) > SHOWN_FAILED:
        out_console.print(f"... {len(report.failed) - SHOWN_FAILED} more in explain.json")
