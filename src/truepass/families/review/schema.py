"""The review sample: one proposed change to accept or reject (docs/review-format.md).

The solver sees the change (its diff and the files it touches, as they were before it) and its
description; the answer key is the decision and the review dialogue that led to it. A
demonstration shows a change with its whole dialogue and outcome.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from truepass.paths import check_relative_path
from truepass.suites.fields import Leakage, Timestamp, aware

ID_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9._/:@+#-]*$"
DECISIONS = ("accept", "reject")
Decision = Literal["accept", "reject"]


class Turn(BaseModel):
    """One turn of a review dialogue: a reviewer's comment or the author's reply."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    role: Literal["reviewer", "author"]
    text: str = Field(min_length=1)
    turning_point: bool = Field(
        False, description="the turn that settled the outcome (a blocking objection, the approval)"
    )


class Change(BaseModel):
    """The change under review: a unified diff and the files it touches, before the change."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    diff: str = Field(min_length=1)
    files: dict[str, str] = Field(
        default_factory=dict, description="path -> content before the change"
    )

    @field_validator("files")
    @classmethod
    def _paths(cls, v: dict[str, str]) -> dict[str, str]:
        return {check_relative_path(p): text for p, text in v.items()}


class ReviewSample(BaseModel):
    """One change and how its review ended (one JSONL line with ``"family": "review"``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    family: Literal["review"]
    id: str = Field(min_length=1, pattern=ID_PATTERN)
    project: str = Field(min_length=1, description="demonstrations come from the same project")
    change: Change
    description: str = Field("", description="what the author said the change does")
    decision: Decision
    dialogue: list[Turn] = Field(default_factory=list)
    timestamp: Timestamp = Field(None, description="ISO 8601: when the review ended")
    source: str = Field(min_length=1)
    leakage: Leakage
    category: str = Field("review", min_length=1, description="summaries break down by it")
    meta: dict[str, object] = Field(default_factory=dict)

    @property
    def when(self) -> datetime | None:
        """``timestamp`` as an aware datetime (one without an offset is read as UTC)."""
        return aware(self.timestamp)

    @property
    def defect_type(self) -> str:
        """Breakdown key shared with repair samples in records and summaries."""
        return self.category
