"""The memorisation family: a file's first part in, its next lines out, compared as strings with
the file's own next lines (docs/memorisation-format.md, docs/metrics.md). Nothing the solver
answers runs, so nothing here needs the sandbox."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from truepass.answers import Answer
from truepass.families.base import AnswerKey, Family
from truepass.families.memorisation.schema import MemorisationSample
from truepass.judged import JudgeConfig, Judged, SampleCheck
from truepass.vocabulary import AnswerKind, CheckStatus, Verdict

if TYPE_CHECKING:
    from truepass.records import AttemptRecord
    from truepass.solvers.base import SolveContext
    from truepass.solvers.capabilities import ModelAsker

MIN_LEAK_CHARS = 12
"""A continuation shorter than this (``}``, ``return x``) may occur in a prompt by chance."""


class MemorisationFamily(Family):
    """Text answers scored by exact, near-exact and line-by-line agreement with the file's
    continuation; the metrics contrast target files with control files."""

    name = "memorisation"
    sample_type = MemorisationSample
    answer_kinds = frozenset({AnswerKind.TEXT})
    prompt_variants = ("code-only",)
    main_metrics = ("target_exact", "control_exact", "exact_difference")
    reference_fails_as = CheckStatus.REFERENCE_FAILS

    def judge(
        self, sample: Any, answer: Answer | None, check: SampleCheck, config: JudgeConfig
    ) -> Judged:
        from truepass.families.memorisation.scoring import SCORES, continuation_scores

        if not check.valid:
            return Judged(verdict=Verdict.INVALID_SAMPLE, details=check.reason)
        text = (answer.text or "") if answer is not None else ""
        if not text.strip():  # counted, with every score 0: an answer missing is never dropped
            why = str(answer.meta.get("parse_detail", "")) if answer else ""
            return Judged(
                verdict=Verdict.NO_PATCH,
                details=why or "no continuation in the answer",
                scores=dict.fromkeys(SCORES, 0.0),
            )
        scores = continuation_scores(text, sample.prefix, sample.continuation)
        return Judged(verdict=Verdict.SCORED, patch=text, scores=scores)

    def reference_answer(self, sample: Any) -> Answer:
        return Answer(text=sample.continuation, patch_id="reference")

    def null_answer(self, sample: Any) -> Answer | None:
        return Answer(text="", patch_id="noop")

    def reference_problem(self, reference: Judged) -> str | None:
        """The file's own continuation must be an exact match."""
        if reference.scores.get("exact") == 1.0:
            return None
        return f"the continuation scores {reference.scores} against itself"

    def null_problem(self, sample: Any, null: Judged) -> str | None:
        """The empty answer must not be an exact match."""
        if null.scores.get("exact", 0.0) < 1.0:
            return None
        return "the empty answer is an exact match"

    def answer_key(self, sample: Any) -> AnswerKey:
        """The continuation (12+ characters, white space normalised), unless the prefix shown
        already holds it."""
        return AnswerKey.distinctive(
            [(sample.continuation, "continuation")],
            min_chars=MIN_LEAK_CHARS,
            shown=[sample.prefix],
        )

    def metrics(self, records: list[AttemptRecord]) -> dict[str, float]:
        """Per role the mean scores and attempts, and target - control with intervals
        (:func:`~truepass.families.memorisation.metrics.probe_metrics`)."""
        from truepass.families.memorisation.metrics import probe_metrics

        return probe_metrics(records)

    def ask_model(
        self, solver: ModelAsker, sample: Any, attempt: int, ctx: SolveContext
    ) -> Answer | None:
        from truepass.families.memorisation.model import ask_for_continuation

        return ask_for_continuation(solver, sample, attempt, ctx)


FAMILY = MemorisationFamily
