"""openai:MODEL against a real local HTTP server replaying answers and faults."""

from __future__ import annotations

import email.utils
import threading
import time

import pytest
from fake_openai import FakeOpenAI, fault, ok, slow, status

from truepass.models import GenerationParams, ModelError, ModelSettings, make_model
from truepass.models.openai_compat import OpenAICompatModel, parse_retry_after

MESSAGES = [{"role": "system", "content": "fix it"}, {"role": "user", "content": "def f(): pass"}]
KEY = "sk-test-secret-123"


def settings(server: FakeOpenAI, **kw: object) -> ModelSettings:
    base: dict[str, object] = {
        "base_url": server.base_url,
        "api_key": KEY,
        "max_retries": 3,
        "timeout_s": 2.0,
        "backoff_base_s": 0.001,
        "backoff_max_s": 0.005,
    }
    base.update(kw)
    return ModelSettings.model_validate(base)


def model(server: FakeOpenAI, **kw: object) -> OpenAICompatModel:
    m = make_model("openai:test-model", settings(server, **kw))
    assert isinstance(m, OpenAICompatModel)
    return m


def test_answer_usage_bearer_and_request_body() -> None:
    with FakeOpenAI([ok("the fix")]) as server:
        m = model(server)
        c = m.complete(MESSAGES, GenerationParams(temperature=0.5, max_tokens=64, seed=7))
    assert c.text == "the fix"
    assert (c.prompt_tokens, c.completion_tokens) == (11, 7)
    assert not c.tokens_estimated and not c.cached
    assert c.model == "openai:test-model" and c.finish_reason == "stop"
    assert c.latency_s > 0
    (req,) = server.requests
    assert req.headers["Authorization"] == f"Bearer {KEY}"
    assert req.body["model"] == "test-model"
    assert req.body["messages"] == MESSAGES
    assert req.body["temperature"] == 0.5 and req.body["max_tokens"] == 64
    assert req.body["seed"] == 7 and "stop" not in req.body
    assert KEY not in repr(m) and KEY not in repr(m.settings)


def test_env_base_url_and_key(monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeOpenAI() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "env-key")
        make_model("openai:m").complete(MESSAGES, GenerationParams())
    assert server.requests[0].headers["Authorization"] == "Bearer env-key"
    assert "seed" not in server.requests[0].body


def test_missing_usage_is_estimated() -> None:
    with FakeOpenAI([ok("x" * 40, usage=False)]) as server:
        c = model(server).complete(MESSAGES, GenerationParams())
    assert c.tokens_estimated and c.completion_tokens == 10 and c.prompt_tokens > 0


@pytest.mark.parametrize(
    "step",
    [
        status(500, "internal"),
        status(502, "bad gateway"),
        status(408, "request timeout"),
        fault("malformed"),
        fault("truncated"),
        fault("drop"),
        fault("no_choices"),
    ],
    ids=lambda s: f"{s.kind}-{s.status}",
)
def test_faults_are_retried(step) -> None:
    with FakeOpenAI([step, step, ok("recovered")]) as server:
        m = model(server)
        c = m.complete(MESSAGES, GenerationParams())
    assert c.text == "recovered"
    assert len(server.requests) == 3 and m.calls == 3


def test_timeout_is_retried() -> None:
    with FakeOpenAI([slow(1.0), ok("fast")]) as server:
        start = time.monotonic()
        c = model(server, timeout_s=0.2).complete(MESSAGES, GenerationParams())
        elapsed = time.monotonic() - start
    assert c.text == "fast" and len(server.requests) == 2
    assert elapsed < 0.9


@pytest.mark.parametrize(
    ("steps", "reason"),
    [
        ([status(500, "kaput")] * 3, "HTTP 500: kaput"),
        ([fault("malformed")] * 3, "malformed JSON"),
        ([fault("drop")] * 3, "connection error"),
        ([fault("no_choices")] * 3, "without choices"),
        ([slow(0.6)] * 3, "timeout after 0.15 s"),
    ],
)
def test_gives_up_after_last_retry_with_reason(steps, reason: str) -> None:
    with FakeOpenAI(steps) as server:
        m = model(server, max_retries=2, timeout_s=0.15)
        with pytest.raises(ModelError) as err:
            m.complete(MESSAGES, GenerationParams())
    assert reason in str(err.value) and "3 tries" in str(err.value)
    assert err.value.attempts == 3 and err.value.retryable
    assert len(server.requests) == 3


def test_client_errors_fail_at_once_with_server_message() -> None:
    with FakeOpenAI([status(400, "context length exceeded"), ok()]) as server:
        m = model(server)
        with pytest.raises(ModelError, match="HTTP 400: context length exceeded") as err:
            m.complete(MESSAGES, GenerationParams())
    assert len(server.requests) == 1
    assert err.value.status == 400 and not err.value.retryable
    assert KEY not in str(err.value)


def test_retry_after_seconds_is_honoured() -> None:
    with FakeOpenAI([status(429, "slow down", {"Retry-After": "1"}), ok()]) as server:
        model(server).complete(MESSAGES, GenerationParams())
    first, second = server.requests
    assert second.at - first.at >= 0.95


def test_retry_after_http_date_is_honoured() -> None:
    when = email.utils.formatdate(time.time() + 2, usegmt=True)
    with FakeOpenAI([status(503, "busy", {"Retry-After": when}), ok()]) as server:
        model(server).complete(MESSAGES, GenerationParams())
    first, second = server.requests
    assert second.at - first.at >= 0.9  # the date has 1 s resolution


def test_retry_after_too_long_fails_at_once() -> None:
    with (
        FakeOpenAI([status(429, "quota", {"Retry-After": "86400"})]) as server,
        pytest.raises(ModelError, match="retry after 86400 s"),
    ):
        model(server).complete(MESSAGES, GenerationParams())
    assert len(server.requests) == 1


def test_parse_retry_after() -> None:
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    assert parse_retry_after(email.utils.formatdate(1000, usegmt=True), now=990) == 10.0
    assert parse_retry_after(email.utils.formatdate(1000, usegmt=True), now=2000) == 0.0


class _RecordedSleep:
    """``time`` as openai_compat sees it, with every ``sleep`` asked for recorded (and slept)."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    def __getattr__(self, name: str) -> object:
        return getattr(time, name)

    def sleep(self, seconds: float) -> None:
        self.delays.append(seconds)
        time.sleep(seconds)


def test_backoff_grows_and_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    from truepass.models import openai_compat

    clock = _RecordedSleep()
    monkeypatch.setattr(openai_compat, "time", clock)
    with FakeOpenAI([status(500)] * 4 + [ok()]) as server:
        model(server, backoff_base_s=0.05, backoff_max_s=0.1, max_retries=4).complete(
            MESSAGES, GenerationParams()
        )
    assert len(server.requests) == 5
    # the delays asked for, not the wall-clock gaps (which a loaded machine stretches)
    delays = clock.delays
    assert len(delays) == 4
    assert 0.025 <= delays[0] <= 0.05  # 0.05 x [0.5, 1]
    assert all(0.05 <= d <= 0.1 for d in delays[1:])  # capped at 0.1 x [0.5, 1]


def test_concurrency_is_limited() -> None:
    with FakeOpenAI([slow(0.15)] * 8) as server:
        m = model(server, concurrency=2)
        results: list[str] = []
        threads = [
            threading.Thread(
                target=lambda: results.append(m.complete(MESSAGES, GenerationParams()).text)
            )
            for _ in range(8)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(results) == 8 and len(server.requests) == 8
    assert server.max_in_flight == 2


def test_no_key_sends_no_authorization(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with FakeOpenAI() as server:
        model(server, api_key=None).complete(MESSAGES, GenerationParams(stop=["```"]))
    assert "Authorization" not in server.requests[0].headers
    assert server.requests[0].body["stop"] == ["```"]


def test_key_never_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG")
    with FakeOpenAI([status(500), fault("drop"), ok()]) as server:
        model(server).complete(MESSAGES, GenerationParams())
    assert "retrying" in caplog.text and KEY not in caplog.text


def test_echoed_key_is_redacted() -> None:
    with (
        FakeOpenAI([status(401, f"bad key {KEY}")]) as server,
        pytest.raises(ModelError) as err,
    ):
        model(server).complete(MESSAGES, GenerationParams())
    assert KEY not in str(err.value) and "bad key ***" in str(err.value)
    assert err.value.attempts == 1
