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

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from truepass.answers import Answer
from truepass.judged import JudgeConfig, Judged, SampleCheck, SampleHealth
from truepass.vocabulary import FLAKY, PASSES_VISIBLE, AnswerKind, CheckStatus, Verdict

if TYPE_CHECKING:
    from truepass.agents.task import AgentTask
    from truepass.records import AttemptRecord
    from truepass.solvers.base import SolveContext
    from truepass.solvers.llm import LLMSolver


def words(text: str) -> str:
    """``text`` with every run of white space one space: how the leak guard compares texts."""
    return " ".join(text.split())


def _holds_name(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


class AnswerKey(BaseModel):
    """What of a sample's answer key no model prompt may show (:meth:`Family.answer_key`), each
    piece mapped to where it comes from (named when a prompt is refused).

    A passage is found anywhere in a text once white space is normalised (:func:`words`); a name
    (an identifier such as a hidden test's) only as a whole word. Build one with
    :meth:`distinctive`, which keeps only what is telling and not already shown.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    passages: dict[str, str] = Field(
        default_factory=dict, description="passage (white space normalised) -> where it is from"
    )
    names: dict[str, str] = Field(
        default_factory=dict, description="identifier, found as a whole word -> where it is from"
    )

    @classmethod
    def distinctive(
        cls,
        passages: Iterable[tuple[str, str]] = (),
        *,
        min_chars: int = 0,
        names: Iterable[tuple[str, str]] = (),
        shown: Sequence[str] = (),
    ) -> AnswerKey:
        """A key of the (text, where) ``passages`` at least ``min_chars`` long once white space
        is normalised, and of the (name, where) ``names``; a piece that ``shown`` (what the
        prompt may show of the sample: its own inputs) already holds is left out, since showing
        it gives nothing away. A piece from two places keeps the last one's name."""
        seen = words("\n".join(shown))
        kept = {w: where for text, where in passages if len(w := words(text)) >= min_chars}
        return cls(
            passages={w: where for w, where in kept.items() if w not in seen},
            names={n: where for n, where in names if not _holds_name(seen, n)},
        )

    def found_in(self, text: str) -> list[str]:
        """What of the key ``text`` holds, as ``where: 'piece'`` (empty: nothing)."""
        flat = words(text)
        found = [f"{where}: {p!r}" for p, where in self.passages.items() if p in flat]
        found += [f"{where}: {n!r}" for n, where in self.names.items() if _holds_name(text, n)]
        return found


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

    main_metrics: ClassVar[tuple[str, ...]] = ()
    """Keys of :meth:`metrics` the report charts against k (``--shots`` sweeps), in this order;
    none: the correct rate."""

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

    def judge_candidates(
        self,
        sample: Any,
        answer: Answer | None,
        check: SampleCheck,
        config: JudgeConfig,
        judged: Judged,
    ) -> None:
        """Judge the other candidates ``answer`` was chosen among, when its solver lists them
        (``answer.meta["candidates"]``, the workflow solver's), and record in ``judged`` (the
        answer's judgement) whether a correct one existed and whether the answer is one
        (:mod:`truepass.workflow.judging`). A family whose solvers may list candidates calls
        it at the end of :meth:`judge`; nothing happens for answers that list none."""
        from truepass.workflow.judging import judge_candidates

        judge_candidates(self, sample, answer, check, config, judged)

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

    def health(self, sample: Any, check: SampleCheck, config: JudgeConfig) -> SampleHealth:
        """``check-suite`` on one sample: the reference answer must be perfect
        (:meth:`reference_problem`), the null answer must not pass. Families add their own checks
        by overriding :meth:`more_health`."""
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
        ``prompt_variants`` take no model solvers. Every call goes through
        :meth:`~truepass.solvers.llm.LLMSolver.ask`, which refuses a prompt holding any of
        :meth:`answer_key`."""
        raise NotImplementedError(f"the {self.name} family takes no model solvers")

    def agent_task(self, sample: Any) -> AgentTask | None:
        """``sample`` as an agent solver (``agent:MODEL``) works on it: the starting files of
        its sandboxed workspace (only what the agent may see), the task text, how to run the
        visible tests, and how the final workspace becomes the answer
        (:class:`~truepass.agents.task.AgentTask`). The default, None: the family takes no
        agents (a run with an agent solver is refused before it starts)."""
        return None

    @property
    def takes_agents(self) -> bool:
        """Whether this family gives agent tasks (it overrides :meth:`agent_task`)."""
        return type(self).agent_task is not Family.agent_task

    def answer_key(self, sample: Any) -> AnswerKey:
        """What of ``sample``'s answer key no model prompt may show: the leak guard
        (:mod:`truepass.prompts.guard`) refuses, before the model is called, every prompt that
        holds a piece of it. The default: nothing."""
        return AnswerKey()

    # -- records and summaries --------------------------------------------------------------

    def category(self, sample: Any) -> str:
        """The breakdown key of summaries (``defect_type`` in records)."""
        return str(getattr(sample, "defect_type", None) or getattr(sample, "category", self.name))

    def metrics(self, records: list[AttemptRecord]) -> dict[str, float]:
        """Metrics this family's summary adds per solver (``metrics`` in summary.json), e.g. text
        or classification scores; verdict rates, pass@k and agents' process metrics
        (``process``) are computed for every family. The default: the candidate metrics of
        solvers that choose among candidates (``candidates_selection_accuracy``, ...; none for
        other solvers); a family that overrides this adds ``super().metrics()``."""
        from truepass.workflow.judging import candidate_metrics

        return candidate_metrics(records)


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
