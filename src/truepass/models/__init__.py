"""Models: LLM endpoints behind solvers (docs/models.md).

``make_model("openai:gpt-4o-mini")``, ``make_model("local:smollm2")`` or
``make_model("local:/path/model.gguf")``; pass a :class:`ResponseCache` to answer reruns from it.
Before any sample, ``preflight_models(models)`` stops a run whose model cannot work at all
(:class:`ModelUnavailable`: endpoint unreachable, key refused, GGUF file gone).
"""

from __future__ import annotations

from truepass.errors import InputError
from truepass.models.base import (
    Completion,
    GenerationParams,
    Message,
    Model,
    ModelError,
    ModelSettings,
    ModelUnavailable,
    preflight_models,
)
from truepass.models.cache import CachedModel, ResponseCache, cache_key, default_cache_path
from truepass.models.cost import DEFAULT_PRICES, Price, cost_usd, parse_price, price_table

KNOWN_FORMS = ("openai:MODEL", "local:smollm2", "local:PATH.gguf")

__all__ = [
    "DEFAULT_PRICES",
    "KNOWN_FORMS",
    "CachedModel",
    "Completion",
    "GenerationParams",
    "Message",
    "Model",
    "ModelError",
    "ModelSettings",
    "ModelUnavailable",
    "Price",
    "ResponseCache",
    "cache_key",
    "cost_usd",
    "default_cache_path",
    "is_model_spec",
    "make_model",
    "parse_price",
    "preflight_models",
    "price_table",
]


def is_model_spec(spec: str) -> bool:
    """Whether ``spec`` has one of the :data:`KNOWN_FORMS` (without checking that it loads)."""
    backend, sep, rest = spec.partition(":")
    if not sep or not rest.strip():
        return False
    if backend == "openai":
        return True
    return backend == "local" and (rest == "smollm2" or rest.endswith(".gguf"))


def make_model(
    spec: str, settings: ModelSettings | None = None, cache: ResponseCache | None = None
) -> Model:
    """The model for ``spec``, wrapped in ``cache`` when given.

    Args:
        spec: ``openai:MODEL`` (any OpenAI-compatible endpoint; ``OPENAI_BASE_URL`` and
            ``OPENAI_API_KEY`` unless ``settings`` say otherwise), ``local:smollm2`` (the
            embedded SmolLM2-135M-Instruct) or ``local:PATH.gguf``.
        settings: endpoint, key, concurrency, retry and timeout settings (defaults otherwise).
        cache: a response cache; stored answers are replayed with ``cached=True``.

    Raises:
        InputError: unknown spec, or a local model whose runtime or file is missing.
    """
    if not is_model_spec(spec):
        raise InputError(
            f"unknown model {spec!r}: expected one of {', '.join(KNOWN_FORMS)}", field="model"
        )
    backend, _, rest = spec.partition(":")
    model: Model
    if backend == "openai":
        from truepass.models.openai_compat import OpenAICompatModel

        model = OpenAICompatModel(rest, settings)
    else:
        from truepass.models.local_llama import LocalLlamaModel

        model = LocalLlamaModel(rest, settings)
    return CachedModel(model, cache) if cache is not None else model
