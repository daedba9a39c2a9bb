"""Fail fast where nothing can work: the preflight, and no retries for faults retrying cannot mend.

Against a real local HTTP server (``FakeOpenAI``, extended here with ``GET /v1/models``) and a
closed loopback port; the number of requests made is asserted, never the wall time.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterable
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI, Seen, Step, ok, slow, status

from truepass.models import (
    CachedModel,
    Completion,
    GenerationParams,
    ModelError,
    ModelSettings,
    ModelUnavailable,
    ResponseCache,
    local_llama,
    make_model,
    preflight_models,
)
from truepass.models.openai_compat import OpenAICompatModel

MESSAGES = [{"role": "user", "content": "def f(): pass"}]
KEY = "sk-test-secret-123"


class FakeWithModels(FakeOpenAI):
    """``FakeOpenAI`` that also answers ``GET /v1/models``, from its own script (a model list
    once the script is spent); ``gets`` records those requests. Every connection is closed after
    one request, so that once the server is shut down no kept-alive connection still answers."""

    def __init__(self, script: Iterable[Step] = (), models_script: Iterable[Step] = ()):
        super().__init__(script)
        self.models_script: list[Step] = list(models_script)
        self.gets: list[Seen] = []
        fake = self
        base = self._server.RequestHandlerClass

        class Handler(base):  # type: ignore[valid-type,misc]
            def do_POST(self) -> None:
                super().do_POST()
                self.close_connection = True

            def do_GET(self) -> None:
                with fake._lock:
                    fake.gets.append(Seen(dict(self.headers.items()), {}, time.monotonic()))
                    step = fake.models_script.pop(0) if fake.models_script else ok()
                if step.delay:
                    time.sleep(step.delay)
                try:
                    if step.kind == "status":
                        self._send(step.status, json.dumps(step.body).encode(), step.headers)
                    else:
                        listing = {"object": "list", "data": [{"id": "test-model"}]}
                        self._send(200, json.dumps(listing).encode())
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout)
                self.close_connection = True

        self._server.RequestHandlerClass = Handler


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def settings(base_url: str, **kw: object) -> ModelSettings:
    base: dict[str, object] = {
        "base_url": base_url,
        "api_key": KEY,
        "max_retries": 5,
        "timeout_s": 2.0,
        "backoff_base_s": 0.001,
        "backoff_max_s": 0.005,
    }
    base.update(kw)
    return ModelSettings.model_validate(base)


def model(base_url: str, **kw: object) -> OpenAICompatModel:
    m = make_model("openai:test-model", settings(base_url, **kw))
    assert isinstance(m, OpenAICompatModel)
    return m


# --- preflight of an OpenAI-compatible endpoint ------------------------------------------------


def test_preflight_passes_with_one_cheap_request() -> None:
    with FakeWithModels() as server:
        m = model(server.base_url)
        m.preflight()
    (probe,) = server.gets
    assert probe.headers["Authorization"] == f"Bearer {KEY}"
    assert server.requests == [] and m.calls == 0 and m.probes == 1


@pytest.mark.parametrize("code", [404, 405, 500, 503])
def test_preflight_passes_when_the_endpoint_answers_anything_but_401_403(code: int) -> None:
    with FakeWithModels(models_script=[status(code, "no such route")]) as server:
        model(server.base_url).preflight()
    assert len(server.gets) == 1


def test_preflight_passes_on_a_server_without_get() -> None:
    with FakeOpenAI() as server:  # answers GET with 501 Not Implemented: still reachable
        model(server.base_url).preflight()


def test_preflight_passes_when_connected_but_slow() -> None:
    with FakeWithModels(models_script=[slow(1.0)]) as server:
        m = model(server.base_url, timeout_s=0.2)
        m.preflight()  # a read timeout after connecting is transient trouble, not "unreachable"
    assert m.probes == 1


def test_preflight_closed_port_fails_at_once_with_a_clear_message() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    m = model(url)
    with pytest.raises(ModelUnavailable) as err:
        m.preflight()
    msg = str(err.value)
    assert m.probes == 1 and m.calls == 0
    assert err.value.kind == "unreachable" and err.value.model_id == "openai:test-model"
    assert err.value.base_url == url and not err.value.retryable
    assert isinstance(err.value, ModelError)
    for part in ("openai:test-model", url, "connection refused", "server running"):
        assert part in msg
    assert "base_url in --model-config" in msg and "OPENAI_BASE_URL" in msg
    assert KEY not in msg


def test_unreachable_message_names_the_environment_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    m = make_model("openai:m")
    with pytest.raises(ModelUnavailable, match="comes from OPENAI_BASE_URL") as err:
        m.preflight()
    assert url in str(err.value)


def test_url_without_scheme_is_unreachable_at_once() -> None:
    m = model("127.0.0.1:8000/v1")
    with pytest.raises(ModelUnavailable, match="invalid base URL"):
        m.preflight()
    with pytest.raises(ModelUnavailable, match="invalid base URL") as err:
        m.complete(MESSAGES, GenerationParams())
    assert m.calls == 1 and err.value.attempts == 1


@pytest.mark.parametrize("code", [401, 403])
def test_preflight_key_refused(code: int) -> None:
    with FakeWithModels(models_script=[status(code, f"invalid key {KEY}")]) as server:
        m = model(server.base_url, api_key_env="MY_PROVIDER_KEY")
        with pytest.raises(ModelUnavailable) as err:
            m.preflight()
    msg = str(err.value)
    assert err.value.kind == "key-refused" and err.value.status == code
    assert len(server.gets) == 1 and server.requests == []
    assert "openai:test-model" in msg and server.base_url in msg
    assert "refused the API key" in msg and f"HTTP {code}" in msg
    assert "$MY_PROVIDER_KEY" in msg
    assert KEY not in msg and "invalid key ***" in msg


def test_key_refused_names_openai_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with FakeWithModels(models_script=[status(401, "bad key")]) as server:
        m = make_model("openai:m", ModelSettings(base_url=server.base_url))
        with pytest.raises(ModelUnavailable, match="the key from OPENAI_API_KEY"):
            m.preflight()


def test_key_refused_without_a_key_says_none_was_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with FakeWithModels(models_script=[status(401, "missing key")]) as server:
        m = model(server.base_url, api_key=None)
        with pytest.raises(ModelUnavailable, match="no API key was sent: set OPENAI_API_KEY"):
            m.preflight()
    assert "Authorization" not in server.gets[0].headers


# --- during a run: retry only what may come and go ---------------------------------------------


def test_connection_refused_is_not_retried() -> None:
    m = model(f"http://127.0.0.1:{closed_port()}/v1")
    with pytest.raises(ModelUnavailable, match="connection refused") as err:
        m.complete(MESSAGES, GenerationParams())
    assert m.calls == 1 and err.value.attempts == 1 and not err.value.retryable


@pytest.mark.parametrize("code", [401, 403])
def test_key_refused_is_not_retried(code: int) -> None:
    with FakeOpenAI([status(code, "invalid api key")] * 6) as server:
        m = model(server.base_url)
        with pytest.raises(ModelUnavailable, match="refused the API key") as err:
            m.complete(MESSAGES, GenerationParams())
    assert len(server.requests) == 1 and m.calls == 1
    assert err.value.attempts == 1 and err.value.status == code and not err.value.retryable


def test_transient_500_is_still_retried() -> None:
    with FakeOpenAI([status(500, "internal"), status(500, "internal"), ok("fine")]) as server:
        m = model(server.base_url)
        m.preflight()
        assert m.complete(MESSAGES, GenerationParams()).text == "fine"
    assert len(server.requests) == 3 and m.calls == 3


def test_transient_500_gives_up_after_all_retries() -> None:
    with FakeOpenAI([status(500, "kaput")] * 6) as server:
        m = model(server.base_url)
        with pytest.raises(ModelError, match="gave up after 6 tries") as err:
            m.complete(MESSAGES, GenerationParams())
    assert not isinstance(err.value, ModelUnavailable) and err.value.retryable
    assert len(server.requests) == 6


def test_refused_after_the_endpoint_answered_is_retried() -> None:
    with FakeWithModels([ok("first")]) as server:
        m = model(server.base_url, max_retries=2)
        assert m.complete(MESSAGES, GenerationParams()).text == "first"
    # the server is gone now (a restart, say): that may come back, so it is retried
    with pytest.raises(ModelError, match="gave up after 3 tries") as err:
        m.complete(MESSAGES, GenerationParams())
    assert not isinstance(err.value, ModelUnavailable)
    assert m.calls == 1 + 3


def test_refused_after_a_passed_preflight_is_retried() -> None:
    with FakeWithModels() as server:
        m = model(server.base_url, max_retries=1)
        m.preflight()
    with pytest.raises(ModelError, match="gave up after 2 tries") as err:
        m.complete(MESSAGES, GenerationParams())
    assert not isinstance(err.value, ModelUnavailable) and m.calls == 2


# --- preflight_models and the response cache ---------------------------------------------------


class _Probe:
    """A stand-in model whose preflight counts calls and fails on demand."""

    context_window = 100

    def __init__(self, id: str, fail: bool = False) -> None:
        self.id = id
        self.fail = fail
        self.probes = 0

    def count_tokens(self, text: str) -> int:
        return len(text)

    def complete(self, messages, params, attempt=0) -> Completion:  # pragma: no cover
        raise AssertionError("preflight must not ask for a completion")

    def preflight(self) -> None:
        self.probes += 1
        if self.fail:
            raise ModelUnavailable(
                f"{self.id}: cannot reach it", model_id=self.id, kind="unreachable"
            )


def test_preflight_models_once_per_distinct_id(tmp_path: Path) -> None:
    a, a_again, b = _Probe("x:a"), _Probe("x:a"), _Probe("x:b")
    wrapped = CachedModel(a, ResponseCache(tmp_path / "c.sqlite"))
    preflight_models([wrapped, a, a_again, b, b])
    assert (a.probes, a_again.probes, b.probes) == (1, 0, 1)


def test_preflight_models_raises_the_one_failure() -> None:
    bad = _Probe("x:bad", fail=True)
    good = _Probe("x:good")
    with pytest.raises(ModelUnavailable, match=r"^x:bad: cannot reach it$"):
        preflight_models([bad, good])
    assert good.probes == 1


def test_preflight_models_reports_every_failure_at_once() -> None:
    one, two = _Probe("x:one", fail=True), _Probe("x:two", fail=True)
    with pytest.raises(ModelUnavailable) as err:
        preflight_models([one, _Probe("x:ok"), two])
    assert str(err.value).startswith("2 models cannot work:")
    assert "- x:one: cannot reach it" in str(err.value)
    assert "- x:two: cannot reach it" in str(err.value)
    assert err.value.model_id == "x:one, x:two" and err.value.kind == "unreachable"


def test_preflight_models_on_real_endpoints(tmp_path: Path) -> None:
    with FakeWithModels() as server:
        up = model(server.base_url)
        cached = make_model(
            "openai:test-model", settings(server.base_url), ResponseCache(tmp_path / "c.sqlite")
        )
        down = make_model("openai:down", settings(f"http://127.0.0.1:{closed_port()}/v1"))
        with pytest.raises(ModelUnavailable, match=r"^openai:down: cannot reach"):
            preflight_models([up, cached, down])
    assert len(server.gets) == 1  # openai:test-model probed once


def test_cached_model_preflight_with_an_empty_cache_is_fatal(tmp_path: Path) -> None:
    m = make_model(
        "openai:test-model",
        settings(f"http://127.0.0.1:{closed_port()}/v1"),
        ResponseCache(tmp_path / "c.sqlite"),
    )
    with pytest.raises(ModelUnavailable, match="connection refused"):
        m.preflight()


def test_a_cached_rerun_works_offline(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    params = GenerationParams()
    with FakeOpenAI([ok("remembered")]) as server:
        first = make_model("openai:test-model", settings(server.base_url), cache)
        first.preflight()
        assert first.complete(MESSAGES, params).text == "remembered"
    assert cache.has_model("openai:test-model") and not cache.has_model("openai:other")

    offline = make_model(
        "openai:test-model", settings(f"http://127.0.0.1:{closed_port()}/v1"), cache
    )
    assert isinstance(offline, CachedModel)
    caplog.set_level("WARNING")
    offline.preflight()  # forgiven: the cache holds answers of this model
    assert "answering from the response cache" in caplog.text
    replay = offline.complete(MESSAGES, params)
    assert replay.cached and replay.text == "remembered"
    with pytest.raises(ModelUnavailable, match="connection refused") as err:
        offline.complete([{"role": "user", "content": "new"}], params)
    assert err.value.attempts == 1 and offline.calls == 1
    inner = offline.model
    assert isinstance(inner, OpenAICompatModel) and inner.calls == 1


# --- local GGUF models -------------------------------------------------------------------------


@pytest.fixture
def no_llama_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Build LocalLlamaModel without llama-cpp-python (the preflight never loads a model)."""
    monkeypatch.setattr(local_llama, "_require_llama_cpp", lambda: None)


@pytest.mark.usefixtures("no_llama_check")
def test_local_preflight_checks_the_file_without_loading(tmp_path: Path) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(b"GGUF" + b"\0" * 60)
    m = make_model(f"local:{path}")
    m.preflight()  # a real load would fail on this stub file
    assert m.calls == 0 and path not in local_llama._instances

    path.write_bytes(b"<html>not found</html>")
    with pytest.raises(ModelUnavailable, match="is not a GGUF file") as err:
        m.preflight()
    assert err.value.kind == "missing-file" and str(path) in str(err.value)

    path.unlink()
    with pytest.raises(ModelUnavailable, match="cannot read the GGUF file") as err:
        m.preflight()
    assert f"local:{path}" in str(err.value) and "local:PATH.gguf" in str(err.value)
