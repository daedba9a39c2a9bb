"""How an agent's model states its actions (a light module: the CLI reads it at start)."""

from __future__ import annotations

from enum import StrEnum


class AgentProtocol(StrEnum):
    """How an agent solver's model states its actions (docs/agents.md)."""

    TEXT = "text"
    """one fenced shell block per reply; any model"""
    TOOLS = "tools"
    """OpenAI-style tool calls; endpoints that support them (``openai:`` models)"""
