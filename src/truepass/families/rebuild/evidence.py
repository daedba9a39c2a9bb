"""What the rebuild judge finds beyond the shared verdict fields (``Judged.evidence``)."""

from __future__ import annotations

from pydantic import Field

from truepass.judged import Evidence
from truepass.metrics.tree import Submission


class RebuildEvidence(Evidence):
    """The submitted tree's language and structure, and the gold's language."""

    gold_language: str | None = Field(None, description="the gold's source language")

    submission: Submission | None = Field(
        None, description="the submitted tree's language and structure"
    )
