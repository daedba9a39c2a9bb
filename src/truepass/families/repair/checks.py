"""What the repair family's check of a pristine sample keeps (cached per suite version)."""

from __future__ import annotations

from pydantic import Field

from truepass.judged import SampleCheck


class RepairCheck(SampleCheck):
    """What the pristine sample does: the tests it expects and whether it is valid at all."""

    visible_ids: list[str] = Field(default_factory=list)
    hidden_ids: list[str] = Field(default_factory=list)
    buggy_failing: list[str] = Field(default_factory=list)
    buggy_passing: list[str] = Field(
        default_factory=list, description="visible and hidden tests the buggy code passes"
    )
    buggy_output: str = Field("", description="tail of the visible tests' output on the buggy code")
    hidden_coverage: dict[str, list[str]] | None = Field(
        None, description="hidden test id -> functions ('file::name') it runs on the buggy code"
    )
    canaries: bool = Field(
        False,
        description="the judge adds canary tests to this sample's runs: they behaved on the "
        "buggy code and the reference fix (docs/sandbox.md, Canaries)",
    )
    canary_note: str = Field("", description="why canaries are off for this sample, if so")
