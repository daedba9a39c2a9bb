"""The one settings object of model solvers (``--prompt``, ``--samples``, ``--temperature`` ...)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


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

    def suffix(self, variant: str, shots: int = 0) -> str:
        """Name suffix: ``#variant`` then ``-rN`` (feedback rounds), ``-kN`` and ``-CONTEXT``
        (demonstrations), ``+fault``, ``@tT``."""
        out = f"#{variant}"
        if variant == "feedback":
            out += f"-r{self.rounds}"
        if shots:
            out += f"-k{shots}" + (f"-{self.context}" if self.context else "")
        if self.given_fault:
            out += "+fault"
        if self.temperature:
            out += f"@t{self.temperature:g}"
        return out
