"""What every model backend is: chat messages in, a :class:`Completion` out.

A **Model** (docs/architecture.md, "Vocabulary") is an LLM endpoint behind a solver. Backends
live in sibling modules (``openai_compat``, ``local_llama``); :func:`truepass.models.make_model`
turns a spec such as ``openai:gpt-4o-mini`` or ``local:smollm2`` into one, optionally wrapped in
the response cache.

Before any sample a run calls :func:`preflight_models` once on its models: an endpoint that cannot
be reached at all or refuses the key (or a local GGUF that is gone) stops the run with one
:class:`ModelUnavailable` instead of failing every attempt.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from truepass.errors import SolverError

log = logging.getLogger(__name__)

Message = dict[str, Any]
"""One chat message: ``{"role": "system" | "user" | "assistant", "content": "..."}``, always with
a text ``content``. With tool calls (:attr:`GenerationParams.tools`), in OpenAI's shape: an
assistant message may also carry ``"tool_calls"`` (a list of ``{"id", "type": "function",
"function": {"name", "arguments"}}``), and a ``"tool"`` message answers one by its
``"tool_call_id"``."""


class ToolSpec(BaseModel):
    """A tool a model may call (a function, in OpenAI's terms): its name, what it does, and the
    JSON Schema of its arguments."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    description: str
    parameters: dict[str, Any] = Field(description="JSON Schema of the arguments (an object)")

    def openai(self) -> dict[str, Any]:
        """The tool as a ``tools`` entry of an OpenAI chat request."""
        fn = {"name": self.name, "description": self.description, "parameters": self.parameters}
        return {"type": "function", "function": fn}


class ToolCall(BaseModel):
    """One tool call of a model's answer. ``arguments`` is the JSON text the model wrote, as it
    wrote it (it may be malformed: the caller validates it against the tool's schema)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    arguments: str = "{}"

    def openai(self) -> dict[str, Any]:
        """The call as an entry of an assistant message's ``tool_calls``."""
        fn = {"name": self.name, "arguments": self.arguments}
        return {"id": self.id, "type": "function", "function": fn}


class GenerationParams(BaseModel):
    """Sampling parameters of one request. Every field goes into the response-cache key
    (``tools`` only when given, so keys of requests without tools are what they always were)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    temperature: float = Field(default=0.0, ge=0.0)
    max_tokens: int = Field(default=1024, ge=1)
    top_p: float = Field(default=1.0, gt=0.0, le=1.0)
    seed: int | None = None
    stop: list[str] | None = None
    tools: tuple[ToolSpec, ...] | None = Field(
        default=None,
        description="tools the model may call (backends that support tool calls: openai); "
        "their calls come back in Completion.tool_calls",
    )


class Completion(BaseModel):
    """One answer of a model.

    ``prompt_tokens``/``completion_tokens`` come from the API's ``usage`` or the local tokenizer;
    when neither is available they are a rough estimate and ``tokens_estimated`` is true.
    ``latency_s`` is the wall time of the request that produced the answer (retries excluded).
    ``cached`` is true when the answer was replayed from the response cache (no model call).
    """

    text: str
    prompt_tokens: int = Field(ge=0)
    completion_tokens: int = Field(ge=0)
    latency_s: float = Field(ge=0.0)
    cached: bool = False
    model: str
    finish_reason: str | None = None
    tokens_estimated: bool = False
    tool_calls: list[ToolCall] = Field(
        default_factory=list, description="the tools the model called (requests with tools)"
    )


class ModelError(SolverError):
    """The model could not answer after all retries (or the request was refused outright).

    ``str()`` is the reason. ``attempts`` is how many requests were made, ``status`` the last HTTP
    status (None when there was no HTTP answer) and ``retryable`` whether trying again later could
    help (false for a 4xx such as a bad request or an unknown model). Callers record the attempt as
    ``infra-error`` either way; a resumed run retries it.
    """

    def __init__(
        self,
        reason: str,
        *,
        attempts: int = 1,
        status: int | None = None,
        retryable: bool = True,
    ):
        self.reason = reason
        self.attempts = attempts
        self.status = status
        self.retryable = retryable
        super().__init__(reason)


UnavailableKind = Literal["unreachable", "key-refused", "missing-file"]
"""Why a model cannot work at all: its endpoint cannot be connected to (refused, DNS, TLS, connect
timeout, bad URL), the endpoint refused the API key (HTTP 401/403), or a local GGUF file is gone
or is not a GGUF file."""


class ModelUnavailable(ModelError):
    """Nothing this model is asked can work until the user fixes something: retrying is useless.

    Raised by :meth:`Model.preflight` (a run calls it once, before any sample) and, during a run,
    instead of retrying, by a request that cannot connect to an endpoint that has never answered
    or whose key is refused. ``str()`` names the model spec, the endpoint (or file), what happened
    and what to do; it never holds the API key. ``kind`` is an :data:`UnavailableKind`,
    ``model_id`` the spec, ``base_url`` the endpoint (None for a local model). Always
    ``retryable=False``. A subclass of :class:`ModelError`, so code that records model failures as
    ``infra-error`` still catches it; a runner should rather stop on it.
    """

    def __init__(
        self,
        reason: str,
        *,
        model_id: str,
        kind: UnavailableKind,
        base_url: str | None = None,
        attempts: int = 1,
        status: int | None = None,
    ):
        super().__init__(reason, attempts=attempts, status=status, retryable=False)
        self.model_id = model_id
        self.kind = kind
        self.base_url = base_url


class ModelSettings(BaseModel):
    """Per-model settings, from a run config file or defaults.

    ``base_url``/``api_key`` default to the backend's environment variables (``OPENAI_BASE_URL``,
    ``OPENAI_API_KEY``). ``concurrency`` bounds in-flight requests per model, ``max_retries`` the
    retries after the first try (transient faults only: an endpoint that cannot be reached or
    refuses the key fails at once, see :class:`ModelUnavailable`), ``timeout_s`` each request.
    Backoff before retry *i* (0-based) is ``min(backoff_max_s, backoff_base_s * 2**i)`` times a
    random factor in [0.5, 1], or the server's ``Retry-After`` when that is longer.
    ``context_window`` overrides the backend's guess. ``api_key_env`` names the environment
    variable ``api_key`` was read from (``--model-config``'s ``api_key_env``); it only tells the
    user which key was refused.
    """

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None
    api_key: str | None = Field(default=None, repr=False)
    api_key_env: str | None = None
    concurrency: int = Field(default=4, ge=1)
    max_retries: int = Field(default=5, ge=0)
    timeout_s: float = Field(default=120.0, gt=0.0)
    backoff_base_s: float = Field(default=1.0, ge=0.0)
    backoff_max_s: float = Field(default=60.0, ge=0.0)
    context_window: int | None = Field(default=None, ge=1)


@runtime_checkable
class Model(Protocol):
    """An LLM endpoint. ``id`` is its spec (``openai:gpt-4o-mini``, ``local:smollm2``) and goes
    into every record and every cache key; ``context_window`` is in tokens."""

    id: str

    @property
    def context_window(self) -> int:
        """Tokens the model can attend to (prompt and completion together)."""
        ...

    def complete(
        self, messages: list[Message], params: GenerationParams, attempt: int = 0
    ) -> Completion:
        """Answer ``messages``. ``attempt`` is the attempt index of the caller (0 for the first
        sample of a pass@k series); backends may ignore it, the cache keys on it so that n
        attempts at temperature > 0 are n distinct samples. Raises :class:`ModelError`."""
        ...

    def count_tokens(self, text: str) -> int:
        """Tokens in ``text`` for this model (exact for local models, an estimate for APIs)."""
        ...

    def preflight(self) -> None:
        """Check cheaply, before any sample, that the model can answer at all; raise
        :class:`ModelUnavailable` when it cannot (an endpoint that cannot be reached or refuses
        the key, a local GGUF file that is gone). Transient trouble (a slow or overloaded
        endpoint) passes: the request retries deal with it. Makes no completion request and loads
        no model."""
        ...


def preflight_models(models: Iterable[Model]) -> None:
    """Run :meth:`Model.preflight` once per distinct model id (the first instance of each), in
    order; a run calls this once before solving any sample.

    Every model is checked, so one error tells about all of them: a single failure is raised as
    it is, several as one :class:`ModelUnavailable` whose message has one line per model (its
    ``kind`` is the first failure's, ``model_id`` the failed ids joined by ``", "``).

    Raises:
        ModelUnavailable: some model cannot work at all; the run should stop before any sample.
    """
    seen: set[str] = set()
    failures: list[ModelUnavailable] = []
    for model in models:
        if model.id in seen:
            continue
        seen.add(model.id)
        try:
            model.preflight()
        except ModelUnavailable as err:
            failures.append(err)
        else:
            log.debug("%s: preflight passed", model.id)
    if len(failures) == 1:
        raise failures[0]
    if failures:
        raise ModelUnavailable(
            f"{len(failures)} models cannot work:\n" + "\n".join(f"- {f}" for f in failures),
            model_id=", ".join(f.model_id for f in failures),
            kind=failures[0].kind,
        )


def estimate_tokens(text: str) -> int:
    """A rough token count (about four characters a token) for when no tokenizer is at hand."""
    return (len(text) + 3) // 4


def messages_text(messages: list[Message]) -> str:
    """All message contents joined, for token estimates."""
    return "\n".join(m.get("content", "") for m in messages)
