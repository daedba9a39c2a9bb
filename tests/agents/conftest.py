"""Fixtures of the agent tests: tool-call replies from the fake OpenAI server (the ``server``
fixture itself is tests/conftest.py's)."""

from __future__ import annotations

import itertools
import json
from typing import Any

import fake_openai
import pytest
from agent_helpers import ToolStep
from fake_openai import Step


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
