"""The seam every task family plugs into (docs/architecture.md, "How to add a family").

A family owns everything that differs between kinds of work: the sample schema, the check of a
pristine sample, the judge of one attempt, the reference and null answers (``oracle`` and
``noop``, and ``check-suite``'s health check), the answer kinds it accepts, how a model is asked
(prompt variants) and what its prompts must never show (its answer key, which the leak guard of
every model call checks), and the metrics its summary adds. The runner, the checker, the
executors, the store, the summary, compare and the report ask the family (found by name in
:mod:`truepass.families.registry`) and never branch on which one it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from truepass.answers import Answer
from truepass.judged import Evidence, JudgeConfig, Judged, SampleCheck, SampleHealth
from truepass.prompts.guard import AnswerKey
from truepass.vocabulary import FLAKY, PASSES_VISIBLE, AnswerKind, CheckStatus, Verdict

if TYPE_CHECKING:
    from truepass.families.formats import SuiteFormat

__all__ = ["AnswerKey", "Family", "interval"]


class Family:
    """One task family. Subclass it, set the class attributes, implement :meth:`judge` and
    :meth:`reference_answer`, and override what else differs; then register it
    (:func:`truepass.families.registry.register`) or ship it as ``truepass/families/NAME/``.

    An instance lives for one run (or one Dask worker process): it may hold run-scoped resources
    (the codegen family's warm sandbox pool), released by :meth:`close`. Jobs sent to Dask carry
    the family's class, so a worker builds its own instance.
    """

    name: ClassVar[str]
    sample_type: ClassVar[type[BaseModel]]
    """The pydantic model of one suite line; it must have ``id`` and ``leakage`` fields."""
    check_type: ClassVar[type[SampleCheck]] = SampleCheck
    evidence_type: ClassVar[type[Evidence]] = Evidence
    """What its judge finds beyond the shared fields (``Judged.evidence``): a subclass of
    :class:`~truepass.judged.Evidence` with typed fields; the base, for a family with none."""
    answer_kinds: ClassVar[frozenset[AnswerKind]] = frozenset()
    """What solvers may answer with, besides nothing (``AnswerKind.NONE``, judged ``no-patch``);
    a replayed answer of another kind is refused before the run."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers

    # -- sandboxed work (runs where the executor runs it) ------------------------------------

    @property
    def local_width(self) -> int | None:
        """Threads of its own the local executor judges this family's jobs in (None: judge in
        the solving thread, right after solving)."""
        return None

    def warm(self, config: JudgeConfig) -> None:
        """Start what judging under ``config`` will need (warm sandbox workers), so that it
        overlaps the run's own start; the local executor calls it once, in a thread of its own,
        as it opens. It must be safe beside :meth:`check` and :meth:`judge` (which start the
        same things if it has not) and may fail silently (they fail then, and say why). The
        default starts nothing."""

    def check(self, sample: Any, config: JudgeConfig) -> SampleCheck:
        """Check a pristine sample once per suite version (cached); the default finds every
        sample valid. A sandbox failure is ``status=infra-error`` (checked again on resume)."""
        return self.check_type(sample_id=sample.id, valid=True)

    def load_check(self, data: dict[str, Any]) -> SampleCheck:
        """A check read back from the store or the check cache."""
        return self.check_type.model_validate(data)

    def judge(
        self, sample: Any, answer: Answer | None, check: SampleCheck, config: JudgeConfig
    ) -> Judged:
        """Judge one attempt; ``answer`` None means the solver produced nothing usable."""
        raise NotImplementedError

    reference_fails_as: ClassVar[CheckStatus] = CheckStatus.FLAKY
    """The status of a sample whose reference answer :meth:`reference_problem` finds fault with in
    ``check-suite``: ``flaky`` where the sample check already judged it passing (the sandboxed
    families), ``reference-fails`` where nothing did (families judged without running code)."""

    def reference_problem(self, reference: Judged) -> str | None:
        """What ``check-suite`` finds wrong with the judgement of the reference answer (None: it
        is perfect). The default: it must be judged correct or plausible, and not flaky."""
        if (
            reference.verdict in (Verdict.CORRECT, Verdict.PLAUSIBLE)
            and FLAKY not in reference.flags
        ):
            return None
        return (
            f"reference judged {reference.verdict.value} {reference.flags or ''} after passing in "
            f"the check: {reference.details}".strip()
        )

    def null_problem(self, sample: Any, null: Judged) -> str | None:
        """What ``check-suite`` finds wrong with the judgement of the null answer (None:
        nothing). The default: it must not pass the visible tests."""
        if null.verdict not in PASSES_VISIBLE:
            return None
        return f"the null answer was judged {null.verdict.value} after failing in the check"

    def health(self, sample: Any, check: SampleCheck, config: JudgeConfig) -> SampleHealth:
        """``check-suite`` on one sample: the reference answer must be perfect
        (:meth:`reference_problem`), the null answer must not pass (:meth:`null_problem`).
        Families add their own checks by overriding :meth:`more_health`."""
        health = SampleHealth(
            sample_id=sample.id,
            defect_type=self.category(sample),
            valid=check.valid,
            reference="-",
            tier=check.tier,
        )
        if not check.valid:
            health.flag(check.status, f"invalid: {check.reason}")
            return health
        ref = self.judge(sample, self.reference_answer(sample), check, config)
        health.reference, health.tier = ref.verdict.value, ref.sandbox_tier or check.tier
        if ref.verdict is Verdict.INFRA_ERROR:
            health.flag(CheckStatus.INFRA_ERROR, f"reference: {ref.details}".strip())
        elif (problem := self.reference_problem(ref)) is not None:
            health.flaky_tests = sorted(set(ref.flaky_tests) | _failing(ref))
            health.flag(self.reference_fails_as, problem)
        null = self.null_answer(sample)
        if null is not None:
            noop = self.judge(sample, null, check, config)
            health.noop = noop.verdict.value
            if noop.verdict is Verdict.INFRA_ERROR:
                health.flag(CheckStatus.INFRA_ERROR, f"the null answer: {noop.details}")
            elif (problem := self.null_problem(sample, noop)) is not None:
                health.flag(CheckStatus.FLAKY, problem)
        self.more_health(sample, check, config, ref, health)
        return health

    def more_health(
        self,
        sample: Any,
        check: SampleCheck,
        config: JudgeConfig,
        reference: Judged,
        health: SampleHealth,
    ) -> None:
        """Family-specific checks of ``check-suite`` after the reference and null answers."""

    def close(self) -> None:
        """Release run-scoped resources."""

    # -- answers --------------------------------------------------------------------------------

    def reference_answer(self, sample: Any) -> Answer:
        """The suite's own answer (what ``oracle`` submits): it must be judged passing."""
        raise NotImplementedError

    def null_answer(self, sample: Any) -> Answer | None:
        """An answer that changes nothing (what ``noop`` submits): it must not pass. None when
        the family has no such answer."""
        return None

    # -- records and summaries --------------------------------------------------------------

    # -- what the family adds to the suite loader --------------------------------------------

    @classmethod
    def suite_formats(cls) -> tuple[SuiteFormat, ...]:
        """Public benchmark formats that read into this family's samples (``--suite
        FORMAT:PATH``, ``truepass import``); the readers are imported when called."""
        return ()

    @classmethod
    def transforms(cls) -> dict[str, Callable[[Any], Any]]:
        """Suite transforms (``--transform NAME``): each takes a suite of this family's samples
        and gives the transformed suite (repair's ``obfuscate``, the leakage probe)."""
        return {}

    def category(self, sample: Any) -> str:
        """The breakdown key of summaries (``defect_type`` in records)."""
        return str(getattr(sample, "defect_type", None) or getattr(sample, "category", self.name))


def _failing(judged: Judged) -> set[str]:
    return {n for p in (judged.visible, judged.hidden) if p is not None for n in p.failing}


def interval(name: str, values: Sequence[float]) -> dict[str, float]:
    """``NAME_ci_low`` and ``NAME_ci_high``: the 95% percentile-bootstrap interval of the mean of
    ``values`` (resampling them, seed 0), to 4 places; empty for no values. How a family's
    :meth:`Family.metrics` gives a mean its interval."""
    from truepass.metrics.bootstrap import bootstrap_ci

    ci = bootstrap_ci(values)
    if ci is None:
        return {}
    return {f"{name}_ci_low": round(ci[0], 4), f"{name}_ci_high": round(ci[1], 4)}
