"""What the rebuild judge finds beyond the shared verdict fields (``Judged.evidence``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from truepass.judged import Evidence
from truepass.metrics.tree import Submission


class BuildUse(BaseModel):
    """Whether the build came from the build cache (docs/rebuild-format.md, "The build
    cache")."""

    key: str = Field(description="the build's key ('' when the cache is off)")
    cached: bool = Field(description="the whole build (its outcome and workspace) was reused")
    checkpoint: Literal["cached", "built"] | None = Field(
        None, description="for a compile.sh with a checkpoint: how its first part was had"
    )


class RebuildEvidence(Evidence):
    """The submitted tree's language and structure, the gold's language, and whether the
    build was cached."""

    gold_language: str | None = Field(None, description="the gold's source language")

    submission: Submission | None = Field(
        None, description="the submitted tree's language and structure"
    )
    build: BuildUse | None = Field(None, description="whether the build came from the cache")
