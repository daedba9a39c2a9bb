"""What the codegen family's check of a sample keeps (cached per suite version)."""

from __future__ import annotations

from pydantic import Field

from truepass.judged import SampleCheck


class CodegenCheck(SampleCheck):
    """A codegen sample checked once: the canonical solution's outputs and timings per case."""

    expected: dict[str, list[str]] = Field(
        default_factory=dict, description="per phase, the expected value of each case (literal)"
    )
    timeouts: dict[str, list[float]] = Field(default_factory=dict)
