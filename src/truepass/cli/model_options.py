"""The solvers' options of ``run`` and ``estimate``: the model options every model-driven kind
shares (panel "Models", :data:`MODEL_OPTIONS`), and one option per field of each solver kind's
own options model, under the kind's panel ("Agents", "Workflow", a plug-in's), all handed to the
command as one :class:`~truepass.solvers.SolverOptions`.

:func:`model_options` is a decorator: the command takes ``options: SolverOptions``
(keyword-only); typer sees the options in its place, and the command gets the object built from
them (:func:`llm_options` for the shared ones, each kind's model for its own).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import annotated_types
import typer
from pydantic import ValidationError

from truepass.cli.common import errors, import_errors
from truepass.errors import InputError
from truepass.solvers import LLMOptions, registry
from truepass.solvers.registry import SolverKind, SolverOptions

M = "Models"
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


def kind_options() -> dict[str, tuple[SolverKind, Any, Any]]:
    """Parameter name -> (its kind, annotation, default): one typer option per field of every
    known solver kind's options model (``--agent-steps`` for ``agent_steps``), with the field's
    description as help, its bounds as ``min``/``max``, under the kind's panel."""
    out: dict[str, tuple[SolverKind, Any, Any]] = {}
    for kind in registry.kinds():
        if kind.options is None:
            continue
        for name, info in kind.options.model_fields.items():
            if name in out or name in MODEL_OPTIONS:
                raise TypeError(f"solver kinds '{out[name][0].name if name in out else 'model'}' "
                                f"and '{kind.name}' both have an option '{name}'")  # fmt: skip
            bounds = {}
            for m in info.metadata:
                if isinstance(m, annotated_types.Ge):
                    bounds["min"] = m.ge
                elif isinstance(m, annotated_types.Le):
                    bounds["max"] = m.le
            option = typer.Option(
                "--" + name.replace("_", "-"), help=info.description, **bounds,
                rich_help_panel=kind.panel or kind.name,
            )  # fmt: skip
            out[name] = (kind, Annotated[info.annotation, option], info.default)
    return out


def solver_options(
    models: LLMOptions, values: dict[str, Any], declared: dict[str, tuple[SolverKind, Any, Any]]
) -> SolverOptions:
    """The run's :class:`SolverOptions` from the shared model options and the parsed values of
    the ``declared`` kind options (:func:`kind_options` when the command was made; each kind's
    model validates its own; a bad value is an :class:`InputError` naming the option)."""
    own: dict[str, dict[str, Any]] = {}
    kinds: dict[str, SolverKind] = {}
    for name, (kind, _, _) in declared.items():
        own.setdefault(kind.name, {})[name] = values[name]
        kinds[kind.name] = kind
    built = {}
    for kind_name, fields in own.items():
        model = kinds[kind_name].options
        assert model is not None
        try:
            built[kind_name] = model(**fields)
        except ValidationError as exc:
            err = exc.errors()[0]
            flag = "--" + str(err["loc"][0]).replace("_", "-") if err["loc"] else kind_name
            raise InputError(err["msg"], field=flag) from None
    return SolverOptions(models=models, kinds=built)


def model_options(command: Callable[..., None]) -> Callable[..., None]:
    """Give ``command`` the solvers' options in place of its keyword-only ``options``
    parameter."""
    signature = inspect.signature(command, eval_str=True)
    if "options" not in signature.parameters:
        raise TypeError(f"{command.__name__} takes no 'options' parameter")
    with import_errors():  # a broken plug-in: one clear error, exit 2
        own = kind_options()
    params = [p for p in signature.parameters.values() if p.name != "options"]
    params += [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=default)
        for name, (kind, default) in MODEL_OPTIONS.items()
    ]
    params += [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=default)
        for name, (_, kind, default) in own.items()
    ]

    @functools.wraps(command)
    def wrapper(**values: Any) -> None:
        with errors():  # a bad option exits 2 before anything runs
            models = llm_options(**{name: values.pop(name) for name in MODEL_OPTIONS})
            options = solver_options(models, {name: values.pop(name) for name in own}, own)
        command(**values, options=options)

    wrapper.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params} | {"return": None}
    return wrapper
