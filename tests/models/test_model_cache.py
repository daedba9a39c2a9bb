"""The response cache: reruns make no calls, keys are exact, stats/clear, threads and processes."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI, ok, status

from truepass.errors import InputError
from truepass.models import (
    CachedModel,
    Completion,
    GenerationParams,
    ModelError,
    ModelSettings,
    ResponseCache,
    cache_key,
    default_cache_path,
    make_model,
)

MESSAGES = [{"role": "user", "content": "fix f"}]


def cached_model(server: FakeOpenAI, cache: ResponseCache, name: str = "m") -> CachedModel:
    s = ModelSettings(base_url=server.base_url, max_retries=0, backoff_base_s=0.0)
    m = make_model(f"openai:{name}", s, cache)
    assert isinstance(m, CachedModel)
    return m


def test_rerun_makes_no_call(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    with FakeOpenAI([ok("first"), ok("second")]) as server:
        a = cached_model(server, cache).complete(MESSAGES, GenerationParams())
        rerun = cached_model(server, ResponseCache(tmp_path / "c.sqlite"))
        b = rerun.complete(MESSAGES, GenerationParams())
    assert len(server.requests) == 1
    assert (a.text, a.cached) == ("first", False)
    assert (b.text, b.cached) == ("first", True)
    assert (b.prompt_tokens, b.completion_tokens) == (a.prompt_tokens, a.completion_tokens)
    assert (rerun.calls, rerun.hits) == (0, 1)


@pytest.mark.parametrize(
    ("params", "attempt", "messages"),
    [
        (GenerationParams(), 1, MESSAGES),
        (GenerationParams(temperature=0.7), 0, MESSAGES),
        (GenerationParams(seed=1), 0, MESSAGES),
        (GenerationParams(max_tokens=10), 0, MESSAGES),
        (GenerationParams(stop=["x"]), 0, MESSAGES),
        (GenerationParams(), 0, [{"role": "user", "content": "fix g"}]),
    ],
)
def test_any_difference_is_a_new_call(tmp_path: Path, params, attempt, messages) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    with FakeOpenAI() as server:
        m = cached_model(server, cache)
        m.complete(MESSAGES, GenerationParams(), 0)
        m.complete(messages, params, attempt)
        m.complete(messages, params, attempt)
    assert len(server.requests) == 2 and (m.calls, m.hits) == (2, 1)


def test_other_model_is_a_new_call(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    with FakeOpenAI() as server:
        cached_model(server, cache, "a").complete(MESSAGES, GenerationParams())
        cached_model(server, cache, "b").complete(MESSAGES, GenerationParams())
    assert len(server.requests) == 2


def test_failures_are_not_stored(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    with FakeOpenAI([status(500), ok("later")]) as server:
        m = cached_model(server, cache)
        with pytest.raises(ModelError):
            m.complete(MESSAGES, GenerationParams())
        assert cache.stats()["entries"] == 0
        assert m.complete(MESSAGES, GenerationParams()).text == "later"
    assert len(server.requests) == 2


def test_stats_and_clear(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    with FakeOpenAI() as server:
        for name, n in (("a", 3), ("b", 2)):
            m = cached_model(server, cache, name)
            for i in range(n):
                m.complete(MESSAGES, GenerationParams(), attempt=i)
    stats = cache.stats()
    assert stats["entries"] == 5 and stats["bytes"] > 0
    assert stats["by_model"]["openai:a"]["entries"] == 3
    assert stats["by_model"]["openai:b"]["entries"] == 2
    assert stats["by_model"]["openai:b"]["bytes"] > 0
    assert cache.clear("openai:a") == 3
    assert cache.clear("openai:nope") == 0
    assert set(cache.stats()["by_model"]) == {"openai:b"}
    assert cache.clear() == 2
    assert cache.stats() == {**stats, "entries": 0, "bytes": cache.stats()["bytes"], "by_model": {}}


def test_key_is_canonical() -> None:
    a = cache_key("openai:m", GenerationParams(), [{"role": "user", "content": "x"}], 0)
    b = cache_key("openai:m", GenerationParams(), [{"content": "x", "role": "user"}], 0)
    assert a == b and len(a) == 64
    assert a != cache_key("local:m", GenerationParams(), [{"role": "user", "content": "x"}], 0)


def test_default_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("TRUEPASS_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_path() == tmp_path / "xdg" / "truepass" / "responses.sqlite"
    monkeypatch.setenv("TRUEPASS_CACHE", str(tmp_path / "env.sqlite"))
    assert ResponseCache().path == tmp_path / "env.sqlite"
    assert ResponseCache(tmp_path / "arg.sqlite").path == tmp_path / "arg.sqlite"


class _Counting:
    """A stand-in model that counts calls (no network)."""

    id = "fake:counting"
    context_window = 100

    def __init__(self) -> None:
        self.calls = 0

    def count_tokens(self, text: str) -> int:
        return len(text)

    def complete(self, messages, params, attempt=0) -> Completion:
        self.calls += 1
        return Completion(
            text=f"{messages[0]['content']}#{attempt}",
            prompt_tokens=1,
            completion_tokens=1,
            latency_s=0.0,
            model=self.id,
        )


def test_threads_share_the_cache(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    inner = _Counting()
    m = CachedModel(inner, cache)
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for i in range(20):
                m.complete([{"role": "user", "content": f"{k}"}], GenerationParams(), i)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and cache.stats()["entries"] == 80
    m2 = CachedModel(inner, cache)
    assert m2.complete([{"role": "user", "content": "3"}], GenerationParams(), 19).text == "3#19"
    assert (m2.calls, m2.hits, inner.calls) == (0, 1, 80)


WRITER = """
import sys
from truepass.models import Completion, GenerationParams, ResponseCache, cache_key
cache = ResponseCache(sys.argv[1])
for i in range(100):
    c = Completion(text=str(i), prompt_tokens=1, completion_tokens=1, latency_s=0, model="p")
    cache.put(cache_key("p", GenerationParams(), [], int(sys.argv[2]) * 1000 + i), c)
"""


def test_concurrent_processes(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(k)]) for k in range(3)]
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0]
    assert ResponseCache(path).stats()["entries"] == 300


def test_unusable_path_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "junk.sqlite").write_bytes(b"this is not a database" * 100)
    with pytest.raises(InputError, match="cannot open the response cache"):
        ResponseCache(tmp_path / "junk.sqlite")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError):
        ResponseCache(tmp_path / "file" / "c.sqlite")
