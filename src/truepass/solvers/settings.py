"""The one settings object of model solvers (``--prompt``, ``--samples``, ``--temperature`` ...)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from truepass.agentic.tools import AgentProtocol

RETRIEVAL_TAGS = {"bm25": "", "embedding": "emb", "random": "rand"}
"""``--retrieval`` method -> what it adds to a k-shot solver's name (the default, bm25, nothing);
the keys are :data:`truepass.prompts.retrieval.METHODS`."""


AGENT_STEPS = 30
AGENT_TIME_S = 600.0
WORKFLOW_CANDIDATES = 5
WORKFLOW_TEMPERATURE = 0.8
WORKFLOW_FUZZ = 20


@dataclass(frozen=True)
class LLMOptions:
    """How model specs become solvers (one solver per prompt variant) and how they prompt.

    Everything that changes answers also changes the solver's name (:meth:`suffix`).
    """

    variants: tuple[str, ...] = ("code-only",)
    samples: int = 1
    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int = 0
    rounds: int = 3
    given_fault: bool = False
    template_dir: Path | None = None
    prices: tuple[str, ...] = field(default=())
    cache_path: Path | None = None
    use_cache: bool = True
    model_config: Path | None = None
    shots: tuple[int, ...] = (0,)
    """demonstrations per prompt; one solver per value (a k-shot sweep)"""
    context: str | None = None
    """the kind of demonstrations (the family's ``context_types``; None: its default)"""
    retrieval: str = "bm25"
    """how demonstrations are chosen: bm25, embedding or random (``Retriever`` methods)"""
    agent_protocol: AgentProtocol = AgentProtocol.TEXT
    """how agent solvers (``agent:MODEL``) state their actions"""
    agent_steps: int = AGENT_STEPS
    """model calls an agent attempt may make"""
    agent_time: float = AGENT_TIME_S
    """seconds an agent attempt may take (model latency and its commands)"""
    agent_tokens: int | None = None
    """prompt and completion tokens an agent attempt may use (None: no limit)"""
    agent_cost: float | None = None
    """USD an agent attempt may spend (None: no limit)"""
    workflow_candidates: int = WORKFLOW_CANDIDATES
    """candidate patches a workflow solver (``workflow:MODEL``) asks for per attempt"""
    workflow_temperature: float = WORKFLOW_TEMPERATURE
    """the temperature the workflow's candidates are sampled at (each with its own seed)"""
    workflow_fuzz: int = WORKFLOW_FUZZ
    """fuzzed inputs per changed function the workflow compares its candidates on (0: none)"""

    def suffix(self, variant: str, shots: int = 0) -> str:
        """Name suffix: ``#variant`` then ``-rN`` (feedback rounds), ``-kN``, ``-CONTEXT`` and
        ``-emb``/``-rand`` (demonstrations, and how they were retrieved when not by BM25),
        ``+fault``, ``@tT``."""
        out = f"#{variant}"
        if variant == "feedback":
            out += f"-r{self.rounds}"
        if shots:
            out += f"-k{shots}" + (f"-{self.context}" if self.context else "")
            tag = RETRIEVAL_TAGS.get(self.retrieval, self.retrieval)
            out += f"-{tag}" if tag else ""
        if self.given_fault:
            out += "+fault"
        if self.temperature:
            out += f"@t{self.temperature:g}"
        return out

    def agent_suffix(self) -> str:
        """An agent solver's name suffix: ``#PROTOCOL``, then the limits that differ from the
        defaults (``-sN`` steps, ``-tS`` seconds, ``-tokN`` tokens, ``-usdC`` dollars), ``@tT``."""
        out = f"#{self.agent_protocol.value}"
        if self.agent_steps != AGENT_STEPS:
            out += f"-s{self.agent_steps}"
        if self.agent_time != AGENT_TIME_S:
            out += f"-t{self.agent_time:g}"
        if self.agent_tokens is not None:
            out += f"-tok{self.agent_tokens}"
        if self.agent_cost is not None:
            out += f"-usd{self.agent_cost:g}"
        if self.temperature:
            out += f"@t{self.temperature:g}"
        return out

    def workflow_suffix(self) -> str:
        """A workflow solver's name suffix: ``#cN`` (candidates), then what differs from the
        defaults (``-tT`` the candidates' temperature, ``-fN`` fuzzed inputs), ``@tT``."""
        out = f"#c{self.workflow_candidates}"
        if self.workflow_temperature != WORKFLOW_TEMPERATURE:
            out += f"-t{self.workflow_temperature:g}"
        if self.workflow_fuzz != WORKFLOW_FUZZ:
            out += f"-f{self.workflow_fuzz}"
        if self.temperature:
            out += f"@t{self.temperature:g}"
        return out
