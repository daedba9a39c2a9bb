"""What judges take and give: the judge configuration, a sample's check, one typed result of
judging an attempt (:class:`Judged`, which :class:`~truepass.records.AttemptRecord` extends), and
a sample's health. Shared by every family (docs/architecture.md).

Light on purpose (pydantic and the sandbox's limits only): the runner, the executors and the
command line import it without loading any family's judge.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from truepass.sandbox.models import Limits
from truepass.vocabulary import CheckStatus, Verdict


class JudgeConfig(BaseModel):
    """How attempts are judged. Part of a run's manifest."""

    model_config = ConfigDict(frozen=True)

    limits: Limits = Field(default_factory=lambda: Limits(timeout_s=60.0))
    reruns: int = Field(1, ge=0, description="extra runs of a passing attempt to detect flakiness")
    infra_retries: int = Field(2, ge=0, description="retries when the sandbox itself fails")
    test_selection: bool | None = Field(
        None,
        description="hidden tests related to the change first (families/repair/selection.py); None "
        "(the default) is off: the coverage map costs more than selection saves "
        "(benchmarks/test_selection.py)",
    )

    differential: bool | None = Field(
        None,
        description="the differential check of test-passing repair patches against the "
        "reference fix (families/repair/differential.py); None (the default) is on, False off",
    )

    @model_serializer(mode="wrap")
    def _omit_default_selection(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        # the defaults leave manifests and run keys as they were before the options existed
        data: dict[str, object] = handler(self)
        for name in ("test_selection", "differential"):
            if getattr(self, name) is None:
                data.pop(name, None)
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


class SampleCheck(BaseModel):
    """What checking a pristine sample found: is it valid, and why not. A family's check extends
    it with what its judge needs (the repair family: the tests the reference fix passes)."""

    sample_id: str
    valid: bool
    status: CheckStatus = CheckStatus.OK
    reason: str = ""
    tier: str = Field("", description="the sandbox tier the check ran in")

    @model_validator(mode="after")
    def _invalid_is_not_ok(self) -> SampleCheck:
        # an invalid check without a reason's status (one stored before statuses existed) is
        # ``invalid``: an invalid sample is never reported ok
        if not self.valid and self.status is CheckStatus.OK:
            self.status = CheckStatus.INVALID
        return self

    @property
    def infra_error(self) -> bool:
        """The sandbox failed while checking: not the sample's fault, checked again on resume."""
        return self.status is CheckStatus.INFRA_ERROR

    @property
    def cacheable(self) -> bool:
        """Kept for later runs: not when the sandbox failed or the environment lacked a module
        (both may be fixed before the next run)."""
        return self.status not in (CheckStatus.INFRA_ERROR, CheckStatus.ENVIRONMENT)


E = TypeVar("E", bound="Evidence")


class Evidence(BaseModel):
    """What a family's judge found beyond the shared fields of :class:`Judged` (its ``evidence``):
    each family declares its own subclass with typed fields (repair: quality, localisation, the
    named root cause; codegen: the first failing case; rebuild: the submission's shape). A record
    read back holds them as written (``extra="allow"``); :meth:`of` gives them typed.

    In ``results.jsonl`` the evidence's fields stand at the top level of each record, as they
    always have (:data:`truepass.records.PUBLISHED_EVIDENCE`)."""

    model_config = ConfigDict(extra="allow")

    @classmethod
    def of(cls: type[E], judged: Judged) -> E:
        """``judged``'s evidence as this type (validated from what was read back if need be)."""
        found = judged.evidence
        return found if isinstance(found, cls) else cls.model_validate(found.model_dump())

    @classmethod
    def on(cls: type[E], judged: Judged) -> E:
        """``judged``'s evidence as this type, kept on ``judged``: what a judge fills in."""
        typed = cls.of(judged)
        judged.evidence = typed
        return typed


class Judged(BaseModel):
    """What a family's judge returns for one attempt: the verdict and the evidence behind it.

    One model for every family; what only one family measures is its :class:`Evidence`. The
    persisted record (:class:`~truepass.records.AttemptRecord`) extends it,
    and the report's columns and CSV exports are derived from its fields.
    """

    verdict: Verdict
    flags: list[str] = Field(default_factory=list, description="fake-fix flags and 'flaky'")
    flag_details: list[FlagDetail] = Field(default_factory=list)
    flaky_tests: list[str] = Field(
        default_factory=list, description="tests failing in one run and not in a rerun"
    )
    regressions: list[str] = Field(
        default_factory=list, description="tests the unchanged code passed and the answer fails"
    )
    evidence: SerializeAsAny[Evidence] = Field(
        default_factory=lambda: Evidence(),
        description="what the family's judge found beyond these fields (its evidence type)",
    )
    visible: PhaseResult | None = None
    hidden: PhaseResult | None = None
    scores: dict[str, float] = Field(
        default_factory=dict, description="per-attempt metric scores (families judged by metrics)"
    )
    patch: str = Field("", description="the answer as judged (the applied diff, code or text)")
    changed_files: list[str] = Field(default_factory=list)
    details: str = ""
    test_output: str = ""
    sandbox_tier: str = ""
    infra_retries: int = 0
    duration_s: float = 0.0


class SampleHealth(BaseModel):
    """``check-suite``'s finding on one sample (one entry of health.json)."""

    sample_id: str
    defect_type: str
    valid: bool = Field(description="the sample check passed: runs judge attempts on it")
    status: CheckStatus = Field(
        CheckStatus.OK,
        description="ok: no problem; invalid: the unchanged code already passes; "
        "reference-fails: the reference answer does not apply or fails here; flaky: a rerun "
        "disagreed; overfit-not-overfit: the known_overfit patch is not judged overfit; "
        "infra-error: the sandbox failed; environment: the tests import a module this "
        "environment does not have",
    )
    reference: str = Field(description="verdict of the reference answer")
    noop: str | None = Field(None, description="verdict of the unchanged code (the null answer)")
    known_overfit: str | None = Field(None, description="verdict of the known_overfit patch")
    problems: list[str] = Field(default_factory=list)
    flaky_tests: list[str] = Field(
        default_factory=list, description="tests that passed in one run and failed in another"
    )
    warnings: list[str] = Field(
        default_factory=list,
        description="fake-fix flags on the reference fix: detector false alarms, not suite faults",
    )
    tier: str = Field("", exclude=True)

    def flag(self, status: CheckStatus, problem: str) -> None:
        """Record a problem; the first one sets the status."""
        if self.status is CheckStatus.OK:
            self.status = status
        self.problems.append(problem)
