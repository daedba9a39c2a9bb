"""The patch-correctness sample: buggy code, the code after a patch, the diff, and the label the
hidden tests gave it (docs/patch-correctness-format.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from truepass.paths import check_relative_path
from truepass.suites.fields import Leakage, Timestamp

LABELS = ("correct", "overfitting")
"""The two labels; ``overfitting``, the second, is the positive class of the metrics."""

ID_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9._/:@+-]*$"


class PatchCorrectnessSample(BaseModel):
    """One patch to judge (one JSONL line with ``"family": "patch-correctness"``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    family: Literal["patch-correctness"]
    id: str = Field(min_length=1, pattern=ID_PATTERN)
    buggy: dict[str, str] = Field(description="the files the patch touches, before it")
    patched: dict[str, str] = Field(description="the same paths after the patch")
    diff: str = Field(min_length=1, description="the unified diff from buggy to patched")
    label: Literal["correct", "overfitting"]
    provenance: Literal["tool", "reference"] = Field(
        description="tool: an attempt of a solver; reference: the suite's own fix"
    )
    defect_type: str = Field(min_length=1)
    project: str = Field(min_length=1, description="where the bug comes from (the source suite)")
    solver: str = Field(min_length=1, description="the solver that made it, or 'reference'")
    source: str = Field(min_length=1)
    leakage: Leakage
    timestamp: Timestamp = Field(None, description="ISO 8601, when known")
    meta: dict[str, object] = Field(default_factory=dict)

    @field_validator("buggy", "patched")
    @classmethod
    def _paths(cls, v: dict[str, str]) -> dict[str, str]:
        return {check_relative_path(k): c for k, c in v.items()}

    @model_validator(mode="after")
    def _consistent(self) -> PatchCorrectnessSample:
        if not self.buggy:
            raise ValueError("'buggy' must name at least one file")
        if set(self.buggy) != set(self.patched):
            raise ValueError("'buggy' and 'patched' must name the same files")
        if self.buggy == self.patched:
            raise ValueError("'patched' equals 'buggy': the patch changes nothing")
        if self.provenance == "reference" and self.label != "correct":
            raise ValueError("a reference fix is labelled 'correct'")
        return self
