"""What a record says about its solver's setting and the demonstrations it was shown, typed.

Model solvers of the families that show demonstrations (``--shots K``, ``--context TYPE``) write
``solver_meta.demonstrations`` per attempt: ``k``, ``context``, ``shown`` (ids, best first),
``scores``, ``removed`` (guard reason -> count) and ``considered``, plus per-demonstration lists a
family adds (``decisions``, ``labels``), and ``retrieval`` (the method) when a record says it. The
report reads them here, never from solver names; a record without them (an older run, a solver
that shows no demonstrations) is a k = 0 attempt.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from truepass.records import AttemptRecord, read_meta_entry

DEFAULT_RETRIEVAL = "bm25"
"""``--retrieval``'s default: not named in line labels"""


class Demonstrations(BaseModel):
    """``solver_meta.demonstrations`` of one attempt; keys a family adds are kept as extras."""

    model_config = ConfigDict(extra="allow", frozen=True)

    k: int = Field(default=0, ge=0)
    """demonstrations asked for (the solver's ``--shots`` value)"""
    context: str | None = None
    """the kind of demonstrations (``--context``, or the family's default)"""
    shown: list[str] = Field(default_factory=list)
    """ids of the demonstrations shown, best first (fewer than ``k`` when fewer passed)"""
    scores: list[float] = Field(default_factory=list)
    """their retrieval (BM25) scores, in the same order; empty for random retrieval"""
    removed: dict[str, int] = Field(default_factory=dict)
    """the leakage guard's reason -> how many candidates it removed for that reason"""
    considered: int | None = None
    """candidates the guard examined"""
    retrieval: str | None = None
    """how they were chosen (``--retrieval``: bm25, embedding, random), when the record says"""

    @property
    def extras(self) -> dict[str, Any]:
        """Keys a family adds (``decisions``, ``labels``, ...)."""
        return dict(self.model_extra or {})

    @property
    def passed(self) -> int | None:
        """Candidates the guard let through (``shown`` is the best of them); None when the
        record does not say how many were considered."""
        if self.considered is None:
            return None
        return self.considered - sum(self.removed.values())


class _SolverHead(BaseModel):
    """The settings in ``solver_meta`` that tell model solvers apart (besides k and context)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    model: str | None = None
    variant: str | None = None
    temperature: float | None = None
    fault_source: str | None = None


def read_demonstrations(meta: Mapping[str, object]) -> Demonstrations | None:
    """The demonstrations an attempt's ``solver_meta`` records; None when it records none or
    records them in a shape this truepass does not read (the page then shows them as they are)."""
    return read_meta_entry(meta, "demonstrations", Demonstrations)


def _head(meta: Mapping[str, object]) -> _SolverHead:
    try:
        return _SolverHead.model_validate(meta)
    except ValidationError:
        return _SolverHead()


@dataclass(frozen=True)
class SolverSetting:
    """What a solver is, as its records tell: the model and its settings, k, context and
    retrieval method."""

    model: str | None = None
    """the model; None for solvers that call none (their records name no model)"""
    variant: str | None = None
    temperature: float | None = None
    fault_source: str | None = None
    k: int = 0
    """demonstrations per prompt; 0 when the records carry no demonstrations"""
    context: str | None = None
    """the kind of demonstrations; None when the records carry no demonstrations"""
    retrieval: str | None = None
    """how demonstrations were chosen, when the records say"""

    @property
    def base(self) -> str | None:
        """The model with every setting but k and context (``local:smollm2#code-only``,
        ``+fault``, ``@t0.7``): solvers of one sweep share it. None for solvers without a
        model."""
        if self.model is None:
            return None
        out = self.model + (f"#{self.variant}" if self.variant else "")
        if self.fault_source == "given":
            out += "+fault"
        if self.temperature:
            out += f"@t{self.temperature:g}"
        return out


def solver_setting(records: list[AttemptRecord]) -> SolverSetting:
    """The setting of one solver from its records: the model settings of the first record that
    names a model, and the (k, context) most of its records carry (k = 0 when none do)."""
    heads = [_head(r.solver_meta) for r in records]
    demos = [read_demonstrations(r.solver_meta) for r in records]
    head = next((h for h in heads if h.model), _SolverHead())
    shots = Counter((d.k, d.context, d.retrieval) for d in demos if d is not None)
    k, context, retrieval = shots.most_common(1)[0][0] if shots else (0, None, None)
    return SolverSetting(
        model=head.model,
        variant=head.variant,
        temperature=head.temperature,
        fault_source=head.fault_source,
        k=k,
        context=context,
        # k = 0 retrieves nothing; the default method (and records from before the method was
        # recorded) go unnamed, so their lines keep the k = 0 point of the same model
        retrieval=retrieval if k and retrieval != DEFAULT_RETRIEVAL else None,
    )
