"""Fixtures of the workflow tests: the fake OpenAI server, its URL and a key in the
environment."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fake_openai import FakeOpenAI


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        yield fake
