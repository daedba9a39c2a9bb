"""Fixtures of the agent tests: the fake OpenAI server (its URL and a key in the environment),
and tool-call replies."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import fake_openai
import pytest
from agent_helpers import ToolStep
from fake_openai import FakeOpenAI, Step


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        yield fake


@pytest.fixture
def tool_replies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the fake server answer a :class:`ToolStep` with OpenAI-style tool calls."""
    plain = fake_openai.completion_body
    ids = itertools.count()

    def body(step: Step, model: str) -> dict[str, Any]:
        out = plain(step, model)
        if isinstance(step, ToolStep) and step.calls:
            message = out["choices"][0]["message"]
            message["content"] = step.text or None
            message["tool_calls"] = [
                {
                    "id": f"call_{next(ids)}",
                    "type": "function",
                    "function": {
                        "name": name,
                        "arguments": args if isinstance(args, str) else json.dumps(args),
                    },
                }
                for name, args in step.calls
            ]
            out["choices"][0]["finish_reason"] = "tool_calls"
        return out

    monkeypatch.setattr(fake_openai, "completion_body", body)
