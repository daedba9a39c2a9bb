"""The code-review family: a change and its description in, a decision (``accept`` or
``reject``) with its rationale out, judged against the decision the project's reviewers took
(docs/review-format.md). Demonstrations (``--shots K``) come from the suite itself through the
leakage guard of :mod:`truepass.prompts.retrieval`: only earlier reviews of the same project,
never the target or a near-duplicate of its diff; ``--context dialogue`` (the default) shows
each one's whole review dialogue and outcome, ``--context decision-only`` its outcome alone.

Scores (per attempt, so the metrics are recomputable from records alone): ``gold_reject``
(1/0), ``predicted_reject`` (1/0, -1 when no decision could be read) and ``right`` (1/0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from truepass.answers import Answer, Label
from truepass.families.base import Family
from truepass.families.review.schema import DECISIONS, ReviewSample
from truepass.judged import JudgeConfig, Judged, SampleCheck, SampleHealth
from truepass.vocabulary import AnswerKind, CheckStatus, Verdict

if TYPE_CHECKING:
    from truepass.records import AttemptRecord
    from truepass.solvers.base import SolveContext
    from truepass.solvers.llm import LLMSolver

POSITIVE = "reject"
"""The positive class of precision, recall and F1 (the study's: a change that needs work)."""


def reference_rationale(sample: ReviewSample) -> str:
    """The reviewers' reason: the turning point's text, else the last reviewer turn's."""
    turns = [t for t in sample.dialogue if t.turning_point]
    turns = turns or [t for t in sample.dialogue if t.role == "reviewer"]
    return turns[-1].text if turns else ""


class ReviewFamily(Family):
    """Label answers judged against the review's outcome, with classification metrics."""

    name = "review"
    sample_type = ReviewSample
    answer_kinds = frozenset({AnswerKind.LABEL})
    prompt_variants = ("code-only",)
    context_types = ("dialogue", "decision-only")

    def judge(
        self, sample: Any, answer: Answer | None, check: SampleCheck, config: JudgeConfig
    ) -> Judged:
        if not check.valid:
            return Judged(verdict=Verdict.INVALID_SAMPLE, details=check.reason)
        gold = int(sample.decision == POSITIVE)
        label = answer.label if answer is not None and not answer.no_patch else None
        decision = label.decision.strip().lower() if label is not None else None
        if decision not in DECISIONS:  # counted wrong, never dropped
            why = str(answer.meta.get("parse_detail", "")) if answer is not None else ""
            if label is not None:
                why = f"decision {label.decision!r} is neither accept nor reject"
            return Judged(
                verdict=Verdict.NO_PATCH,
                details=why or "no decision in the answer",
                patch=f"Decision: {label.decision}\n{label.rationale}".strip() if label else "",
                scores={"gold_reject": gold, "predicted_reject": -1, "right": 0},
            )
        assert label is not None
        right = decision == sample.decision
        return Judged(
            verdict=Verdict.CORRECT if right else Verdict.FAILS_VISIBLE,
            details="" if right else f"answered {decision}, the review ended in {sample.decision}",
            patch=f"Decision: {decision}\n{label.rationale}".strip(),
            scores={
                "gold_reject": gold,
                "predicted_reject": int(decision == POSITIVE),
                "right": int(right),
            },
        )

    def reference_answer(self, sample: Any) -> Answer:
        return Answer(
            label=Label(decision=sample.decision, rationale=reference_rationale(sample)),
            patch_id="reference",
        )

    def health(self, sample: Any, check: SampleCheck, config: JudgeConfig) -> SampleHealth:
        """The reference decision must be judged right (there is no null answer)."""
        health = SampleHealth(
            sample_id=sample.id, defect_type=self.category(sample), valid=check.valid, reference="-"
        )
        if not check.valid:
            health.flag(check.status, f"invalid: {check.reason}")
            return health
        ref = self.judge(sample, self.reference_answer(sample), check, config)
        health.reference = ref.verdict.value
        if ref.verdict is not Verdict.CORRECT:
            health.flag(CheckStatus.REFERENCE_FAILS, f"the reference decision: {ref.details}")
        return health

    def metrics(self, records: list[AttemptRecord]) -> dict[str, float]:
        """Label metrics over counted attempts with ``reject`` as the positive class
        (:func:`truepass.metrics.labels.label_metrics`: accuracy, precision, recall, f1,
        ``recall[CLASS]``, balanced accuracy, unparsed rate, majority and random baselines),
        and a 95% bootstrap interval of accuracy (``accuracy_ci_low``/``_high``; seed 0)."""
        from truepass.metrics.bootstrap import bootstrap_ci
        from truepass.metrics.labels import label_metrics
        from truepass.vocabulary import counted

        gold: list[str] = []
        predicted: list[str | None] = []
        for r in records:
            if not counted(r.verdict) or "gold_reject" not in r.scores:
                continue
            gold.append("reject" if r.scores["gold_reject"] == 1 else "accept")
            said = r.scores.get("predicted_reject", -1)
            predicted.append(None if said == -1 else ("reject" if said == 1 else "accept"))
        out = {k: round(v, 4) for k, v in label_metrics(gold, predicted, POSITIVE).items()}
        ci = bootstrap_ci([float(g == p) for g, p in zip(gold, predicted, strict=True)])
        if ci is not None:
            out["accuracy_ci_low"], out["accuracy_ci_high"] = round(ci[0], 4), round(ci[1], 4)
        return out

    def ask_model(
        self, solver: LLMSolver, sample: Any, attempt: int, ctx: SolveContext
    ) -> Answer | None:
        from truepass.families.review.model import ask_for_decision

        return ask_for_decision(self, solver, sample, attempt, ctx)
