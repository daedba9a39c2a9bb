"""``openai:MODEL``: any OpenAI-compatible ``/v1/chat/completions`` endpoint.

Works with OpenAI, vLLM, a llama.cpp server, Ollama, DeepSeek, Qwen... Plain httpx rather than the
``openai`` package: the retry policy (what is retried, Retry-After, jitter, truncated bodies) must
be ours and visible, and the ``openai`` client would add a second, hidden retry layer and a larger
dependency tree for one POST request.

Faults never escape as anything but :class:`ModelError`. Transient ones are retried with
exponential backoff and jitter (honouring ``Retry-After``): 429, 408, 409 and 5xx answers,
timeouts once connected, dropped connections, malformed or truncated JSON bodies and bodies
without choices, and connection failures of an endpoint that has answered before (a restarting
server). Faults that retrying cannot mend fail at once: a connection that cannot be made to an
endpoint that has never answered (refused, DNS, TLS, connect timeout, a URL without ``http://``)
and HTTP 401/403 raise :class:`ModelUnavailable`, other 4xx answers a :class:`ModelError` with the
server's message. :meth:`OpenAICompatModel.preflight` finds the first two before any sample with
one ``GET {base_url}/models``. The API key goes only into the ``Authorization`` header: it is
never logged, printed or put in an error message.
"""

from __future__ import annotations

import email.utils
import functools
import json
import logging
import os
import random
import ssl
import threading
import time
from typing import Any

import httpx

from truepass.models.base import (
    Completion,
    GenerationParams,
    Message,
    ModelError,
    ModelSettings,
    ModelUnavailable,
    ToolCall,
    estimate_tokens,
    messages_text,
)

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRY_AFTER_MAX_S = 600.0
"""A server asking to wait longer than this (a spent daily quota) fails the request at once."""
DEFAULT_CONTEXT_WINDOW = 8192
KNOWN_CONTEXT_WINDOWS: dict[str, int] = {
    "gpt-4o": 128_000,
    "gpt-4o-mini": 128_000,
    "gpt-4.1": 1_047_576,
    "gpt-4.1-mini": 1_047_576,
    "gpt-4.1-nano": 1_047_576,
    "gpt-3.5-turbo": 16_385,
    "deepseek-chat": 64_000,
    "deepseek-coder": 64_000,
}
RETRYABLE_STATUSES = frozenset({408, 409, 429})
KEY_REFUSED_STATUSES = frozenset({401, 403})
PREFLIGHT_TIMEOUT_S = 10.0
"""The preflight probe's timeout (or ``timeout_s`` when that is shorter)."""

_semaphores: dict[tuple[str, str, int], threading.BoundedSemaphore] = {}
_semaphores_lock = threading.Lock()


def _shared_semaphore(model_id: str, base_url: str, limit: int) -> threading.BoundedSemaphore:
    """One semaphore per (model, endpoint, limit) in the process, however many clients exist."""
    with _semaphores_lock:
        key = (model_id, base_url, limit)
        if key not in _semaphores:
            _semaphores[key] = threading.BoundedSemaphore(limit)
        return _semaphores[key]


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    """httpx's default TLS context (certifi, SSL_CERT_FILE/DIR), built once: loading the CA
    bundle costs tens of milliseconds per client otherwise."""
    return httpx.create_ssl_context()


class _Retry(Exception):
    """Internal: this try failed in a way worth retrying."""

    def __init__(self, reason: str, status: int | None = None, retry_after: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.retry_after = retry_after


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta seconds or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def _connect_failure(exc: Exception) -> str:
    """What went wrong, in words, for an exception that means no connection was made."""
    text = str(exc).strip()
    low = text.lower()
    if isinstance(exc, httpx.ConnectTimeout):
        what = "connect timeout"
    elif isinstance(exc, httpx.UnsupportedProtocol | httpx.InvalidURL):
        what = "invalid base URL"
    elif "refused" in low:
        what = "connection refused"
    elif any(
        hint in low
        for hint in ("name or service", "nodename", "getaddrinfo", "no address", "name resolution")
    ):
        what = "DNS lookup failed"
    elif "ssl" in low or "certificate" in low or "tls" in low:
        what = "TLS handshake failed"
    else:
        what = "connection failed"
    return f"{what}: {text}" if text else what


def _server_message(response: httpx.Response) -> str:
    """The error message of an OpenAI-style error body, else the start of the body."""
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return response.text[:300].strip()
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
        if isinstance(err, str):
            return err
        if body.get("message"):
            return str(body["message"])
    return response.text[:300].strip()


class OpenAICompatModel:
    """A chat model behind an OpenAI-compatible endpoint. Thread-safe."""

    def __init__(self, name: str, settings: ModelSettings | None = None):
        """``name`` is the model name the endpoint knows (``gpt-4o-mini``); ``settings`` give the
        endpoint, key, limits and retry policy (defaults from the environment)."""
        self.settings = settings or ModelSettings()
        self.name = name
        self.id = f"openai:{name}"
        env_url = os.environ.get("OPENAI_BASE_URL")
        self.base_url = (self.settings.base_url or env_url or DEFAULT_BASE_URL).rstrip("/")
        self._base_url_from = (
            "base_url in --model-config"
            if self.settings.base_url
            else "OPENAI_BASE_URL"
            if env_url
            else f"the default (OPENAI_BASE_URL is not set; default {DEFAULT_BASE_URL})"
        )
        env_key = os.environ.get("OPENAI_API_KEY") or None
        self._api_key = self.settings.api_key or env_key
        self._api_key_from = (
            (
                f"the key from ${self.settings.api_key_env} (api_key_env in --model-config)"
                if self.settings.api_key_env
                else "the key from --model-config (api_key_env)"
            )
            if self.settings.api_key
            else "the key from OPENAI_API_KEY"
            if env_key
            else None
        )
        self.context_window = self.settings.context_window or KNOWN_CONTEXT_WINDOWS.get(
            name, DEFAULT_CONTEXT_WINDOW
        )
        self.calls = 0
        """HTTP requests made (tries, retries included)."""
        self.probes = 0
        """Preflight probes made (not counted in ``calls``)."""
        self._answered = False
        """Whether the endpoint has ever sent an HTTP answer to this model (any status)."""
        self._calls_lock = threading.Lock()
        self._semaphore = _shared_semaphore(self.id, self.base_url, self.settings.concurrency)
        self._random = random.Random()
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        self._client = httpx.Client(
            headers=headers,
            verify=_ssl_context(),
            timeout=httpx.Timeout(self.settings.timeout_s),
            limits=httpx.Limits(max_connections=self.settings.concurrency),
        )

    def __repr__(self) -> str:
        return f"OpenAICompatModel(id={self.id!r}, base_url={self.base_url!r})"

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def count_tokens(self, text: str) -> int:
        """A rough estimate (four characters a token): the API's tokenizer is not at hand."""
        return estimate_tokens(text)

    def preflight(self) -> None:
        """One ``GET {base_url}/models`` with a short timeout (:data:`PREFLIGHT_TIMEOUT_S`), no
        retry: a run calls this once before any sample.

        Any HTTP answer but 401/403 (404 or 405 from a server without ``/models`` included)
        proves the endpoint reachable; so does a read timeout or a dropped connection after
        connecting (transient trouble is for the request retries). No completion is requested.

        Raises:
            ModelUnavailable: no connection could be made (``kind="unreachable"``) or the
                endpoint refused the API key (``kind="key-refused"``).
        """
        timeout = min(self.settings.timeout_s, PREFLIGHT_TIMEOUT_S)
        with self._calls_lock:
            self.probes += 1
        url = f"{self.base_url}/models"
        try:
            response = self._client.get(url, timeout=httpx.Timeout(timeout))
        except (
            httpx.ConnectError,
            httpx.ConnectTimeout,
            httpx.UnsupportedProtocol,
            httpx.InvalidURL,
        ) as exc:
            raise self._unreachable(exc, attempts=1) from None
        except httpx.TransportError as exc:
            log.warning(
                "%s: preflight GET %s connected but got no answer (%s: %s); going on",
                self.id, url, type(exc).__name__, self._redact(str(exc)),
            )  # fmt: skip
            return
        self._answered = True
        status = response.status_code
        if status in KEY_REFUSED_STATUSES:
            raise self._key_refused(response, attempts=1)
        if status >= 400 and status not in (404, 405):
            log.warning(
                "%s: preflight GET %s answered HTTP %d; the endpoint is reachable, going on",
                self.id, url, status,
            )  # fmt: skip

    def _unreachable(self, exc: Exception, attempts: int) -> ModelUnavailable:
        """The error for a connection that could not be made to :attr:`base_url`."""
        what = self._redact(_connect_failure(exc))
        return ModelUnavailable(
            f"{self.id}: cannot reach the endpoint {self.base_url} ({what}). Is the server "
            f"running and reachable from here? The URL comes from {self._base_url_from}; set "
            "OPENAI_BASE_URL, or base_url for this model in --model-config, to the endpoint's "
            "/v1 URL.",
            model_id=self.id,
            kind="unreachable",
            base_url=self.base_url,
            attempts=attempts,
        )

    def _key_refused(self, response: httpx.Response, attempts: int) -> ModelUnavailable:
        """The error for an endpoint that answered 401/403."""
        status = response.status_code
        message = self._redact(_server_message(response))
        answer = f"HTTP {status}: {message}" if message else f"HTTP {status}"
        if self._api_key_from is None:
            fix = (
                "no API key was sent: set OPENAI_API_KEY, or api_key_env for this model in "
                "--model-config"
            )
        else:
            fix = (
                f"it refused {self._api_key_from}: check that the key is valid for this "
                "endpoint and allowed to use this model"
            )
        return ModelUnavailable(
            f"{self.id}: the endpoint {self.base_url} refused the API key ({answer}); {fix}.",
            model_id=self.id,
            kind="key-refused",
            base_url=self.base_url,
            attempts=attempts,
            status=status,
        )

    def complete(
        self, messages: list[Message], params: GenerationParams, attempt: int = 0
    ) -> Completion:
        """One chat completion, retried per the settings; raises :class:`ModelError`
        (:class:`ModelUnavailable`, without retries, when the endpoint cannot be reached and
        never has answered, or refuses the key)."""
        body: dict[str, Any] = {
            "model": self.name,
            "messages": messages,
            "temperature": params.temperature,
            "max_tokens": params.max_tokens,
            "top_p": params.top_p,
        }
        if params.seed is not None:
            body["seed"] = params.seed
        if params.stop:
            body["stop"] = params.stop
        if params.tools:
            body["tools"] = [tool.openai() for tool in params.tools]
        tries = self.settings.max_retries + 1
        for i in range(tries):
            try:
                with self._semaphore:
                    return self._try_once(body, messages)
            except ModelError as err:
                err.attempts = i + 1
                raise
            except _Retry as fault:
                fault.reason = self._redact(fault.reason)
                if i + 1 >= tries:
                    raise ModelError(
                        f"{self.id}: gave up after {tries} tries: {fault.reason}",
                        attempts=tries,
                        status=fault.status,
                    ) from None
                delay = self._delay(i, fault.retry_after)
                if delay is None:
                    raise ModelError(
                        f"{self.id}: server asks to retry after {fault.retry_after:.0f} s "
                        f"(more than {RETRY_AFTER_MAX_S:.0f} s): {fault.reason}",
                        attempts=i + 1,
                        status=fault.status,
                    ) from None
                log.warning(
                    "%s: try %d/%d failed (%s); retrying in %.2f s",
                    self.id, i + 1, tries, fault.reason, delay,
                )  # fmt: skip
                time.sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover

    def _redact(self, text: str) -> str:
        """``text`` without the API key, should a server echo it back."""
        return text.replace(self._api_key, "***") if self._api_key else text

    def _delay(self, retry: int, retry_after: float | None) -> float | None:
        """Seconds before the next try: jittered exponential backoff, or Retry-After if longer."""
        s = self.settings
        backoff = min(s.backoff_max_s, s.backoff_base_s * 2**retry)
        backoff *= self._random.uniform(0.5, 1.0)
        if retry_after is None:
            return backoff
        if retry_after > RETRY_AFTER_MAX_S:
            return None
        return max(backoff, retry_after)

    def _try_once(self, body: dict[str, Any], messages: list[Message]) -> Completion:
        """One HTTP request; raises _Retry for retryable faults, ModelError for final ones."""
        with self._calls_lock:
            self.calls += 1
        start = time.monotonic()
        try:
            response = self._client.post(f"{self.base_url}/chat/completions", json=body)
            raw = response.content  # reads the whole body: truncation raises here
        except httpx.InvalidURL as exc:
            raise self._unreachable(exc, attempts=1) from None
        except httpx.TransportError as exc:
            if isinstance(exc, httpx.UnsupportedProtocol) or (
                # never answered: nothing to wait for (once it has, a restart is worth waiting)
                isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout) and not self._answered
            ):
                raise self._unreachable(exc, attempts=1) from None
            if isinstance(exc, httpx.TimeoutException):
                raise _Retry(
                    f"timeout after {self.settings.timeout_s:g} s ({type(exc).__name__})"
                ) from None
            raise _Retry(f"connection error: {type(exc).__name__}: {exc}") from None
        self._answered = True
        latency = time.monotonic() - start
        status = response.status_code
        if status in KEY_REFUSED_STATUSES:
            raise self._key_refused(response, attempts=1)
        if status >= 400:
            message = _server_message(response)
            reason = f"HTTP {status}: {message}" if message else f"HTTP {status}"
            if status >= 500 or status in RETRYABLE_STATUSES:
                retry_after = None
                if status in (429, 503):
                    retry_after = parse_retry_after(response.headers.get("Retry-After"))
                raise _Retry(reason, status, retry_after)
            raise ModelError(f"{self.id}: {self._redact(reason)}", status=status, retryable=False)
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise _Retry(f"malformed JSON body ({exc.msg} at {exc.pos})", status) from None
        except UnicodeDecodeError:
            raise _Retry("malformed body (not UTF-8)", status) from None
        return self._parse(data, messages, latency, status)

    def _parse(self, data: Any, messages: list[Message], latency: float, status: int) -> Completion:
        """A Completion from a decoded response body (_Retry when it has no usable choice)."""
        choices = data.get("choices") if isinstance(data, dict) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise _Retry("response without choices", status)
        choice = choices[0]
        message = choice.get("message")
        if not isinstance(message, dict):
            raise _Retry("response choice without a message", status)
        text = message.get("content") or ""
        if not isinstance(text, str):
            raise _Retry("response message content is not text", status)
        tool_calls = _tool_calls(message.get("tool_calls"))
        if tool_calls is None:
            raise _Retry("response message tool_calls are malformed", status)
        usage = data.get("usage")
        prompt_tokens = completion_tokens = None
        if isinstance(usage, dict):
            prompt_tokens = usage.get("prompt_tokens")
            completion_tokens = usage.get("completion_tokens")
        estimated = not (isinstance(prompt_tokens, int) and isinstance(completion_tokens, int))
        if estimated:
            prompt_tokens = self.count_tokens(messages_text(messages))
            completion_tokens = self.count_tokens(text)
        return Completion(
            text=text,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            latency_s=latency,
            model=self.id,
            finish_reason=choice.get("finish_reason"),
            tokens_estimated=estimated,
            tool_calls=tool_calls,
        )


def _tool_calls(raw: Any) -> list[ToolCall] | None:
    """The tool calls of a response message (empty when it has none); None when they are not
    OpenAI's shape. Arguments the endpoint sent as an object are kept as their JSON text."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        return None
    calls = []
    for n, item in enumerate(raw):
        fn = item.get("function") if isinstance(item, dict) else None
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
            return None
        args = fn.get("arguments")
        if args is None:
            args = "{}"
        elif not isinstance(args, str):
            args = json.dumps(args, ensure_ascii=False)
        call_id = item.get("id")
        calls.append(
            ToolCall(id=call_id if isinstance(call_id, str) else f"call_{n}",
                     name=fn["name"], arguments=args)
        )  # fmt: skip
    return calls
