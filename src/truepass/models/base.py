"""What every model backend is: chat messages in, a :class:`Completion` out.

A **Model** (DESIGN.md, "Vocabulary") is an LLM endpoint behind a solver. Backends live in sibling
modules (``openai_compat``, ``local_llama``); :func:`truepass.models.make_model` turns a spec
such as ``openai:gpt-4o-mini`` or ``local:smollm2`` into one, optionally wrapped in the response
cache.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from truepass.errors import SolverError

Message = dict[str, str]
"""One chat message: ``{"role": "system" | "user" | "assistant", "content": "..."}``."""


class GenerationParams(BaseModel):
    """Sampling parameters of one request. Every field goes into the response-cache key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    temperature: float = Field(default=0.0, ge=0.0)
    max_tokens: int = Field(default=1024, ge=1)
    top_p: float = Field(default=1.0, gt=0.0, le=1.0)
    seed: int | None = None
    stop: list[str] | None = None


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


class ModelSettings(BaseModel):
    """Per-model settings, from a run config file or defaults.

    ``base_url``/``api_key`` default to the backend's environment variables (``OPENAI_BASE_URL``,
    ``OPENAI_API_KEY``). ``concurrency`` bounds in-flight requests per model, ``max_retries`` the
    retries after the first try, ``timeout_s`` each request. Backoff before retry *i* (0-based) is
    ``min(backoff_max_s, backoff_base_s * 2**i)`` times a random factor in [0.5, 1], or the
    server's ``Retry-After`` when that is longer. ``context_window`` overrides the backend's guess.
    """

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None
    api_key: str | None = Field(default=None, repr=False)
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


def estimate_tokens(text: str) -> int:
    """A rough token count (about four characters a token) for when no tokenizer is at hand."""
    return (len(text) + 3) // 4


def messages_text(messages: list[Message]) -> str:
    """All message contents joined, for token estimates."""
    return "\n".join(m.get("content", "") for m in messages)
