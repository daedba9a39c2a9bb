"""The seam every task family plugs into (docs/architecture.md, "How to add a family").

A family owns everything that differs between kinds of work: the sample schema, the check of a
pristine sample, the judge of one attempt, the reference and null answers (``oracle`` and
``noop``, and ``check-suite``'s health check), the answer kinds it accepts, how a model is asked
(prompt variants), and the metrics its summary adds. The runner, the checker, the executors, the
store, the summary, compare and the report ask the family (found by name in
:mod:`truepass.families.registry`) and never branch on which one it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from truepass.answers import Answer
from truepass.judged import JudgeConfig, Judged, SampleCheck, SampleHealth
from truepass.vocabulary import FLAKY, PASSES_VISIBLE, AnswerKind, CheckStatus, Verdict

if TYPE_CHECKING:
    from truepass.records import AttemptRecord
    from truepass.solvers.base import SolveContext
    from truepass.solvers.llm import LLMSolver


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
    answer_kinds: ClassVar[frozenset[AnswerKind]] = frozenset()
    """What solvers may answer with, besides nothing (``AnswerKind.NONE``, judged ``no-patch``);
    a replayed answer of another kind is refused before the run."""
    prompt_variants: ClassVar[tuple[str, ...]] = ()
    """Prompt variants (``--prompt``) a model solver may use on this family; none: no models."""
    context_types: ClassVar[tuple[str, ...]] = ()
    """Kinds of demonstrations (``--context``) its prompts can show with ``--shots K``, the
    default first; none: the family's prompts show no demonstrations."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers

    # -- sandboxed work (runs where the executor runs it) ------------------------------------

    @property
    def local_width(self) -> int | None:
        """Threads of its own the local executor judges this family's jobs in (None: judge in
        the solving thread, right after solving)."""
        return None

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

    def health(self, sample: Any, check: SampleCheck, config: JudgeConfig) -> SampleHealth:
        """``check-suite`` on one sample: the reference answer must pass, the null answer must
        not. Families add their own checks by overriding :meth:`more_health`."""
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
        elif ref.verdict not in (Verdict.CORRECT, Verdict.PLAUSIBLE) or FLAKY in ref.flags:
            health.flaky_tests = sorted(set(ref.flaky_tests) | _failing(ref))
            health.flag(
                CheckStatus.FLAKY,
                f"reference judged {ref.verdict.value} {ref.flags or ''} after passing in the "
                f"check: {ref.details}".strip(),
            )
        null = self.null_answer(sample)
        if null is not None:
            noop = self.judge(sample, null, check, config)
            health.noop = noop.verdict.value
            if noop.verdict is Verdict.INFRA_ERROR:
                health.flag(CheckStatus.INFRA_ERROR, f"the null answer: {noop.details}")
            elif noop.verdict in PASSES_VISIBLE:
                health.flag(
                    CheckStatus.FLAKY,
                    f"the null answer was judged {noop.verdict.value} after failing in the check",
                )
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

    def ask_model(
        self, solver: LLMSolver, sample: Any, attempt: int, ctx: SolveContext
    ) -> Answer | None:
        """One attempt of a model solver on ``sample`` (prompt, call, parse); families without
        ``prompt_variants`` take no model solvers."""
        raise NotImplementedError(f"the {self.name} family takes no model solvers")

    # -- records and summaries --------------------------------------------------------------

    def category(self, sample: Any) -> str:
        """The breakdown key of summaries (``defect_type`` in records)."""
        return str(getattr(sample, "defect_type", None) or getattr(sample, "category", self.name))

    def metrics(self, records: list[AttemptRecord]) -> dict[str, float]:
        """Metrics this family's summary adds per solver (``metrics`` in summary.json), e.g. text
        or classification scores; verdict rates and pass@k are computed for every family."""
        return {}


def _failing(judged: Judged) -> set[str]:
    return {n for p in (judged.visible, judged.hidden) if p is not None for n in p.failing}
