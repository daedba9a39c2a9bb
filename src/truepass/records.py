"""Persisted result records (one line of results.jsonl each); documented in docs/results.md."""

from __future__ import annotations

from pydantic import BaseModel, Field

from truepass.judges.repair import FlagDetail, PhaseResult
from truepass.metrics.localisation import Localisation
from truepass.metrics.quality import QualityDelta
from truepass.patches.fakefix import FLAG_NAMES
from truepass.usage import Usage


class AttemptRecord(BaseModel):
    """One judged attempt of one solver on one sample."""

    suite: str
    sample_id: str
    defect_type: str
    leakage: str
    solver: str
    attempt: int = Field(ge=0)
    patch_id: str | None = None
    verdict: str
    flags: list[str] = Field(default_factory=list)
    flag_details: list[FlagDetail] = Field(default_factory=list)
    regressions: list[str] = Field(default_factory=list)
    quality: QualityDelta | None = None
    localisation: Localisation | None = None
    visible: PhaseResult | None = None
    hidden: PhaseResult | None = None
    patch: str = ""
    changed_files: list[str] = Field(default_factory=list)
    details: str = ""
    test_output: str = ""
    sandbox_tier: str = ""
    infra_retries: int = 0
    solve_s: float = 0.0
    duration_s: float = 0.0
    usage: Usage | None = Field(None, description="model calls, tokens, latency, cost")
    parse: str | None = Field(None, description="how the model's answer was parsed")
    solver_meta: dict[str, object] = Field(default_factory=dict)


FAKE_FIX_FLAGS = frozenset(FLAG_NAMES)


def is_correct(record: AttemptRecord) -> bool:
    """A correct verdict that no fake-fix flag casts doubt on: what rates count as correct.

    A patch that passes every test but, say, special-cases the tests' inputs or edits the tests
    is reported with its verdict and flags, and is not counted as correct (``flagged_correct``).
    """
    return record.verdict == "correct" and not FAKE_FIX_FLAGS.intersection(record.flags)
