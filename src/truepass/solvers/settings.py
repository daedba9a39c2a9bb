"""The model options every model-driven solver kind shares (``--prompt``, ``--samples``,
``--temperature`` ...); a kind's own options are its options model
(:class:`truepass.solvers.registry.SolverKind`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

RETRIEVAL_TAGS = {"bm25": "", "embedding": "emb", "random": "rand"}
"""``--retrieval`` method -> what it adds to a k-shot solver's name (the default, bm25, nothing);
the keys are :data:`truepass.prompts.retrieval.METHODS`."""


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
