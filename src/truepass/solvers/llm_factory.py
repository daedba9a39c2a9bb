"""Turn a model spec and the run's LLM options into prompted solvers (one per variant)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from pydantic import ValidationError

from truepass.errors import InputError
from truepass.models import ModelSettings, ResponseCache, make_model, price_table
from truepass.models.base import Model
from truepass.solvers.llm import LLMSolver
from truepass.solvers.settings import LLMOptions

_models: dict[tuple[str, str], Model] = {}


def read_model_config(path: Path) -> dict[str, ModelSettings]:
    """Per-model settings from a TOML file::

    [models."openai:gpt-4o-mini"]
    base_url = "http://127.0.0.1:8000/v1"
    api_key_env = "MY_PROVIDER_KEY"   # the key is read from this variable, never the file
    concurrency = 8
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read model config: {exc}", location=str(path)) from exc
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}", location=str(path)) from exc
    out: dict[str, ModelSettings] = {}
    models = data.get("models", {})
    if not isinstance(models, dict):
        raise InputError("must be a table of model specs", location=str(path), field="models")
    for spec, raw in models.items():
        if not isinstance(raw, dict):
            raise InputError("must be a table", location=str(path), field=f"models.{spec}")
        raw = dict(raw)
        env = raw.pop("api_key_env", None)
        if env is not None:
            raw["api_key"] = os.environ.get(str(env))
            if raw["api_key"] is None:
                raise InputError(f"environment variable {env} is not set", location=str(path),
                                 field=f"models.{spec}.api_key_env")  # fmt: skip
        try:
            out[spec] = ModelSettings.model_validate(raw)
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"])
            raise InputError(err["msg"], location=str(path),
                             field=f"models.{spec}.{field}") from None  # fmt: skip
    return out


def inner_model_spec(spec: str, prefix: str) -> str:
    """The model spec of a solver spelled ``PREFIX:MODEL`` (``agent:openai:NAME``,
    ``workflow:local:smollm2``).

    Raises:
        InputError: what follows the prefix is not a model spec.
    """
    from truepass.models import is_model_spec

    model_spec = spec.removeprefix(prefix)
    if not is_model_spec(model_spec):
        raise InputError(
            f"'{spec}': expected {prefix}MODEL with MODEL one of openai:MODEL, local:smollm2, "
            "local:PATH.gguf",
            field="--solver",
        )
    return model_spec


def llm_model(spec: str, options: LLMOptions) -> Model:
    """The model of ``spec`` with the settings (``--model-config``) and the response cache of
    ``options``; one instance per spec and cache, shared by every solver that asks it."""
    settings = read_model_config(options.model_config).get(spec) if options.model_config else None
    cache = None
    if options.use_cache:
        cache = ResponseCache(options.cache_path) if options.cache_path else ResponseCache()
    key = (spec, str(options.cache_path) + str(options.use_cache))
    if key not in _models:
        _models[key] = make_model(spec, settings, cache)
    return _models[key]


def llm_solvers(spec: str, options: LLMOptions) -> list[LLMSolver]:
    """One :class:`LLMSolver` per prompt variant of ``options``, sharing one model instance."""
    model = llm_model(spec, options)
    prices = price_table(list(options.prices))
    return [
        LLMSolver(model, options, variant, prices, shots)
        for variant in options.variants
        for shots in options.shots
    ]
