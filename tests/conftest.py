"""Shared by every test: no test reads or writes the user's machine-wide sample-check cache or
suite cache or rebuild build cache (a test may monkeypatch what a suite is read with; tests of
the caches give them their own file or directory); warm test workers are closed after each
module; the ``server`` fixture of the fake endpoint."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from fake_openai import FakeOpenAI

os.environ["TRUEPASS_CHECK_CACHE"] = "off"
os.environ["TRUEPASS_SUITE_CACHE"] = "off"
os.environ["TRUEPASS_BUILD_CACHE"] = "off"  # the rebuild build cache: tests of it turn it on


@pytest.fixture(autouse=True, scope="module")
def _close_warm_test_pools() -> Iterator[None]:
    """Warm test workers (truepass.sandbox.testpool) live as long as their process; close them
    after each test module, so that no module sees another's sandboxes or run directories."""
    yield
    from truepass.sandbox import testpool

    testpool.close_all()


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    """A fake OpenAI-compatible endpoint (tests/fake_openai.py) that ``openai:`` models reach
    through the environment; set its ``script`` before the run."""
    with FakeOpenAI() as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        yield fake
