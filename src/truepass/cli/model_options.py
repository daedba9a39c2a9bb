"""The model options (panels "Models", "Agents" and "Workflow" of ``run`` and ``estimate``),
declared once and handed to the command as one :class:`~truepass.solvers.LLMOptions`.

:func:`model_options` is a decorator: the command takes ``llm: LLMOptions`` (keyword-only); typer
sees the options of :data:`MODEL_OPTIONS` in its place, and the command gets the settings object
built from them by :func:`llm_options`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from truepass.cli.common import errors
from truepass.errors import InputError
from truepass.solvers import LLMOptions
from truepass.solvers.settings import (
    AGENT_STEPS,
    AGENT_TIME_S,
    WORKFLOW_CANDIDATES,
    WORKFLOW_FUZZ,
    WORKFLOW_TEMPERATURE,
    AgentProtocol,
)

M = "Models"
A = "Agents"
W = "Workflow"
PROMPT_HELP = (
    "Prompt variant (repeat for several): code-only, description, feedback, root-cause for "
    "repair suites; codegen suites take code-only."
)

# parameter name -> (annotation, default); the order is the order of --help
MODEL_OPTIONS: dict[str, tuple[Any, Any]] = {
    "prompt": (Annotated[list[str] | None, typer.Option(
        "--prompt", help=PROMPT_HELP, rich_help_panel=M)], None),
    "samples": (Annotated[int, typer.Option(
        min=1, help="Attempts per sample (pass@k).", rich_help_panel=M)], 1),
    "temperature": (Annotated[float, typer.Option(
        min=0.0, help="Sampling temperature.", rich_help_panel=M)], 0.0),
    "max_tokens": (Annotated[int, typer.Option(
        min=16, help="Completion token limit.", rich_help_panel=M)], 1024),
    "seed": (Annotated[int, typer.Option(
        help="Base sampling seed (attempt i uses seed+i).", rich_help_panel=M)], 0),
    "rounds": (Annotated[int, typer.Option(
        min=1, help="Rounds of the feedback variant.", rich_help_panel=M)], 3),
    "fault_hint": (Annotated[bool, typer.Option("--fault-hint", help="Show models the suite's "
        "fault lines (not comparable with runs without; recorded in the solver name).",
        rich_help_panel=M)], False),
    "templates": (Annotated[Path | None, typer.Option("--templates", help="Directory of prompt "
        "templates overriding the bundled ones by file name.", rich_help_panel=M)], None),
    "price": (Annotated[list[str] | None, typer.Option("--price", help="MODEL=IN,OUT in USD per "
        "million input/output tokens (repeatable).", rich_help_panel=M)], None),
    "cache": (Annotated[Path | None, typer.Option("--cache", help="Response cache file (default "
        "~/.cache/truepass/responses.sqlite or $TRUEPASS_CACHE).", rich_help_panel=M)], None),
    "no_cache": (Annotated[bool, typer.Option("--no-cache", help="Neither read nor write the "
        "response cache.", rich_help_panel=M)], False),
    "model_config": (Annotated[Path | None, typer.Option("--model-config", help="TOML with "
        "per-model base_url, api_key_env, concurrency, retries, timeout.",
        rich_help_panel=M)], None),
    "shots": (Annotated[str, typer.Option("--shots", help="Demonstrations per prompt, e.g. "
        "0,1,3: one solver per value (a k-shot sweep; families that show demonstrations).",
        rich_help_panel=M)], "0"),
    "context": (Annotated[str | None, typer.Option("--context", help="Kind of demonstrations "
        "(the family's; e.g. project for summarisation).", rich_help_panel=M)], None),
    "retrieval": (Annotated[str, typer.Option("--retrieval", help="How demonstrations are "
        "chosen: bm25 (default), embedding (all-MiniLM-L6-v2, the 'embed' extra) or random; "
        "recorded in the solver name (-emb, -rand).", rich_help_panel=M)], "bm25"),
    "agent_protocol": (Annotated[AgentProtocol, typer.Option("--agent-protocol", help="How "
        "agent:MODEL solvers act: text (one fenced shell block per reply, any model) or tools "
        "(tool calls, openai: endpoints that support them).", rich_help_panel=A)],
        AgentProtocol.TEXT),
    "agent_steps": (Annotated[int, typer.Option("--agent-steps", min=1, help="Model calls an "
        "agent attempt may make.", rich_help_panel=A)], AGENT_STEPS),
    "agent_time": (Annotated[float, typer.Option("--agent-time", min=1.0, help="Seconds an agent "
        "attempt may take (model latency as recorded, plus its commands).",
        rich_help_panel=A)], AGENT_TIME_S),
    "agent_tokens": (Annotated[int | None, typer.Option("--agent-tokens", min=1, help="Prompt "
        "and completion tokens an agent attempt may use (default: no limit).",
        rich_help_panel=A)], None),
    "agent_cost": (Annotated[float | None, typer.Option("--agent-cost", min=0.0, help="USD an "
        "agent attempt may spend (needs the model's price; default: no limit).",
        rich_help_panel=A)], None),
    "workflow_candidates": (Annotated[int, typer.Option("--workflow-candidates", min=1, max=100,
        help="Candidate patches a workflow:MODEL solver asks for per attempt.",
        rich_help_panel=W)], WORKFLOW_CANDIDATES),
    "workflow_temperature": (Annotated[float, typer.Option("--workflow-temperature", min=0.0,
        help="Sampling temperature of the workflow's candidates (each with its own seed).",
        rich_help_panel=W)], WORKFLOW_TEMPERATURE),
    "workflow_fuzz": (Annotated[int, typer.Option("--workflow-fuzz", min=0, help="Fuzzed "
        "inputs per changed function the workflow compares its candidates on (0: none).",
        rich_help_panel=W)], WORKFLOW_FUZZ),
}  # fmt: skip


def parse_shots(text: str) -> tuple[int, ...]:
    """``"0,1,3"`` -> ``(0, 1, 3)``; :class:`InputError` for anything but distinct counts."""
    try:
        shots = tuple(int(part) for part in text.split(","))
    except ValueError:
        shots = ()
    if not shots or min(shots) < 0 or len(set(shots)) != len(shots):
        raise InputError(
            f"'{text}' is not a list of distinct demonstration counts (e.g. 0,1,3)",
            field="--shots",
        )
    return shots


def parse_retrieval(text: str) -> str:
    """The ``--retrieval`` method; :class:`InputError` for an unknown one, and for ``embedding``
    when the model of the ``embed`` extra is not installed (the message says how to install it).
    """
    from truepass.metrics import minilm
    from truepass.prompts.retrieval import METHODS

    if text not in METHODS:
        raise InputError(
            f"unknown retrieval method '{text}' (choose one of {', '.join(METHODS)})",
            field="--retrieval",
        )
    if text == "embedding":
        minilm.model_dir("--retrieval embedding")
    return text


def llm_options(
    *, prompt: list[str] | None, price: list[str] | None, fault_hint: bool,
    templates: Path | None, cache: Path | None, no_cache: bool, shots: str = "0",
    retrieval: str = "bm25", **same: Any,
) -> LLMOptions:  # fmt: skip
    """The settings object from the parsed model options (those named as its fields pass as
    they are)."""
    return LLMOptions(
        variants=tuple(prompt or ("code-only",)), prices=tuple(price or ()),
        given_fault=fault_hint, template_dir=templates, cache_path=cache, use_cache=not no_cache,
        shots=parse_shots(shots), retrieval=parse_retrieval(retrieval), **same,
    )  # fmt: skip


def model_options(command: Callable[..., None]) -> Callable[..., None]:
    """Give ``command`` the model options in place of its keyword-only ``llm`` parameter."""
    signature = inspect.signature(command, eval_str=True)
    if "llm" not in signature.parameters:
        raise TypeError(f"{command.__name__} takes no 'llm' parameter")
    params = [p for p in signature.parameters.values() if p.name != "llm"]
    params += [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=default)
        for name, (kind, default) in MODEL_OPTIONS.items()
    ]

    @functools.wraps(command)
    def wrapper(**values: Any) -> None:
        with errors():  # a bad model option exits 2 before anything runs
            llm = llm_options(**{name: values.pop(name) for name in MODEL_OPTIONS})
        command(**values, llm=llm)

    wrapper.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params} | {"return": None}
    return wrapper
