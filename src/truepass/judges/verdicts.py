"""What every judge shares: the verdicts, the judge configuration and a phase's counts.

Light on purpose (pydantic and the sandbox's limits only): the runner, the codegen judge and the
command line import it without loading the repair judge and its test runner.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from truepass.sandbox.models import Limits


class Verdict(StrEnum):
    """Repair verdicts of DESIGN.md."""

    INVALID_SAMPLE = "invalid-sample"
    NO_PATCH = "no-patch"
    APPLY_FAILED = "apply-failed"
    BROKEN = "broken"
    FAILS_VISIBLE = "fails-visible"
    OVERFIT = "overfit"
    CORRECT = "correct"
    PLAUSIBLE = "plausible"
    TIMEOUT = "timeout"
    INFRA_ERROR = "infra-error"


PASSING = {Verdict.OVERFIT, Verdict.CORRECT, Verdict.PLAUSIBLE}


class JudgeConfig(BaseModel):
    """How attempts are judged. Part of a run's manifest."""

    model_config = ConfigDict(frozen=True)

    limits: Limits = Field(default_factory=lambda: Limits(timeout_s=60.0))
    reruns: int = Field(1, ge=0, description="extra runs of a passing attempt to detect flakiness")
    infra_retries: int = Field(2, ge=0, description="retries when the sandbox itself fails")
    test_selection: bool | None = Field(
        None,
        description="hidden tests related to the change first (judges/selection.py); None "
        "(the default) is off: the coverage map costs more than selection saves "
        "(benchmarks/test_selection.py)",
    )

    @model_serializer(mode="wrap")
    def _omit_default_selection(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        # the default leaves manifests and run keys as they were before the option existed
        data: dict[str, object] = handler(self)
        if self.test_selection is None:
            data.pop("test_selection", None)
        return data


class TestSelection(BaseModel):
    """How a hidden phase ran under test selection (``hidden.selection`` in results)."""

    __test__ = False  # not a pytest test class

    total: int = Field(description="hidden tests the suite expects")
    related: int = Field(description="tests run first (0 when the tests ran in their own order)")
    ran: int = Field(description="expected tests that ran")
    stopped_early: bool = Field(False, description="a related test failed: the rest never ran")
    fallback: str = Field("", description="why the tests ran in their own order ('' if not)")


class FlagDetail(BaseModel):
    """Why a flag was raised, pointing at a line."""

    name: str
    file: str = ""
    line: int = 0
    explanation: str = ""


class PhaseResult(BaseModel):
    """Counts for one phase (visible or hidden) against what the suite expects."""

    expected: int
    passed: int
    failed: int
    missing: int
    ok: bool
    failing: list[str] = Field(default_factory=list)
    selection: TestSelection | None = Field(
        None, description="hidden phase under test selection: how it ran"
    )
