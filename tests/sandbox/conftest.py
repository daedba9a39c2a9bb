"""Fixtures of the sandbox tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def force_bwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force the bwrap tier: a broken bwrap then raises instead of quietly falling back (and
    running an attack payload on the host)."""
    monkeypatch.setenv("TRUEPASS_SANDBOX", "bwrap")
