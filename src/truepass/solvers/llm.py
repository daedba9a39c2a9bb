"""Prompted model solvers: a model and a prompt variant. How a sample becomes a prompt and an
answer is the family's (:meth:`truepass.solvers.capabilities.Prompted.ask_model`); this module
checks
every prompt with the leak guard (:mod:`truepass.prompts.guard`, the family's
:meth:`~truepass.solvers.capabilities.Prompted.answer_key`), calls the model, keeps the usage
accounting,
and records every round with its raw response.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from truepass.answers import Answer
from truepass.models.base import (
    Completion,
    GenerationParams,
    Message,
    Model,
    preflight_models,
)
from truepass.models.cost import Price, cost_usd
from truepass.prompts.guard import check_no_leaks
from truepass.solvers.base import SolveContext
from truepass.solvers.capabilities import Demonstrating, ModelAsker, Prompted
from truepass.solvers.settings import LLMOptions
from truepass.usage import Usage

if TYPE_CHECKING:
    from truepass.families.base import Family


class ModelSolver:
    """What every solver driven by a model shares (prompted here, acting in ``agents/``): its
    model and the run's settings, the preflight, ``options.samples`` attempts per sample, and
    each attempt's sampling parameters."""

    model: Model
    options: LLMOptions

    def prepare(self) -> None:
        preflight_models([self.model])

    def attempts(self, sample: Any) -> int:
        return self.options.samples

    def params(self, attempt: int) -> GenerationParams:
        """Sampling parameters of one attempt (every call it makes): attempt i samples with
        seed + i when the temperature is above 0."""
        o = self.options
        seed = o.seed + attempt if o.temperature > 0 else o.seed
        return GenerationParams(temperature=o.temperature, max_tokens=o.max_tokens, seed=seed)


class LLMSolver(ModelSolver):
    """Asks ``model`` with one prompt ``variant``; ``attempts`` = ``options.samples`` (pass@k)."""

    families = None  # any family that takes model solvers with this variant (see serves)

    def __init__(
        self,
        model: Model,
        options: LLMOptions,
        variant: str,
        prices: Mapping[str, Price] | None = None,
        shots: int = 0,
    ) -> None:
        self.model = model
        self.options = options
        self.variant = variant
        self.prices = prices
        self.shots = shots
        self.name = model.id + options.suffix(variant, shots)

    def serves(self, family: Family) -> str | None:
        if not isinstance(family, Prompted):
            return f"{family.name} samples take no model solvers"
        if self.variant not in family.prompt_variants:
            return (
                f"prompt variant '{self.variant}' does not apply to {family.name} samples "
                f"(--prompt: {', '.join(family.prompt_variants)})"
            )
        if (self.shots or self.options.context) and not isinstance(family, Demonstrating):
            return f"{family.name} samples take no demonstrations (--shots, --context)"
        if self.options.context and self.options.context not in family.context_types:
            return (
                f"context '{self.options.context}' does not apply to {family.name} samples "
                f"(--context: {', '.join(family.context_types)})"
            )
        return None

    def ask(
        self,
        messages: list[Message],
        params: GenerationParams,
        usage: Usage,
        *,
        key: int,
        sample: Any,
        ctx: SolveContext,
        answers_from: int | None = None,
    ) -> Completion:
        """One model call (through the response cache, ``key`` joins its cache key); its tokens,
        latency and cost are added to ``usage``.

        First the leak guard: ``messages`` must not hold any of ``ctx.family.answer_key(sample)``
        (every message up to ``answers_from``, the index of the first one that replays the
        model's own earlier answer in a multi-round prompt; None: every message).

        Raises:
            PromptLeakError: the prompt holds some of the sample's answer key; the model is not
                called.
        """
        family = ctx.family
        if not isinstance(family, Prompted):  # serves() refused it before the run
            raise TypeError(f"the {family.name} family takes no model solvers")
        check_no_leaks(messages, family.answer_key(sample), sample.id, answers_from=answers_from)
        completion = self.model.complete(messages, params, attempt=key)
        usage.add_completion(
            completion,
            cost_usd(
                self.model.id, completion.prompt_tokens, completion.completion_tokens, self.prices
            ),
        )
        return completion

    def meta(self, params: GenerationParams, rounds: list[dict[str, object]]) -> dict[str, object]:
        """What an attempt's ``solver_meta`` records; the last round's parse is the answer's."""
        last = rounds[-1]
        return {
            "model": self.model.id,
            "variant": self.variant,
            "fault_source": "given" if self.options.given_fault else "none",
            "temperature": self.options.temperature,
            "seed": params.seed,
            "parse_kind": last["parse_kind"],
            "parse_detail": last["parse_detail"],
            "rounds": rounds,
        }

    def solve(self, sample: Any, attempt: int, ctx: SolveContext) -> Answer | None:
        family = ctx.family
        if not isinstance(family, Prompted):  # serves() refused it before the run
            raise TypeError(f"the {family.name} family takes no model solvers")
        return family.ask_model(self, sample, attempt, ctx)


def round_record(
    rnd: int, messages: list[Message], completion: Completion, kind: str, detail: str
) -> dict[str, object]:
    """One model round as ``solver_meta.rounds`` keeps it: prompt, raw response, parse, tokens."""
    return {
        "round": rnd,
        "prompt": messages,
        "response": completion.text,
        "parse_kind": kind,
        "parse_detail": detail,
        "cached": completion.cached,
        "prompt_tokens": completion.prompt_tokens,
        "completion_tokens": completion.completion_tokens,
        "finish_reason": completion.finish_reason,
    }


_T = TypeVar("_T")


def demonstration_context(
    family: Demonstrating, solver: ModelAsker
) -> tuple[str, dict[str, object]]:
    """The kind of demonstrations an attempt shows (``--context``, else the family's default) and
    its ``solver_meta.demonstrations`` so far: k and that context."""
    context = solver.options.context or family.context_types[0]
    return context, {"k": solver.shots, "context": context}


def ask_once(
    solver: ModelAsker,
    messages: list[Message],
    read: Callable[[str], tuple[_T | None, str, str]],
    demonstrations: dict[str, object],
    *,
    attempt: int,
    sample: Any,
    ctx: SolveContext,
) -> tuple[_T | None, dict[str, object], Usage]:
    """An attempt of one model round with demonstrations (summarize, review, patch-correctness):
    ``messages`` asked, the answer read by ``read`` (value or None, parse kind, detail). Returns
    the value, the attempt's ``solver_meta`` (its round and ``demonstrations``; no fault source)
    and its usage."""
    params = solver.params(attempt)
    usage = Usage()
    completion = solver.ask(messages, params, usage, key=attempt, sample=sample, ctx=ctx)
    value, kind, detail = read(completion.text)
    meta = solver.meta(params, [round_record(0, messages, completion, kind, detail)])
    meta.pop("fault_source", None)
    meta["demonstrations"] = demonstrations
    return value, meta, usage
