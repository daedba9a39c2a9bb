"""What the codegen judge finds beyond the shared verdict fields (``Judged.evidence``)."""

from __future__ import annotations

from pydantic import Field

from truepass.judged import Evidence


class CodegenEvidence(Evidence):
    """The first case a generated function failed."""

    failed_case: dict[str, object] | None = Field(
        None, description="the first failing case: phase, index, args, expected, got"
    )
