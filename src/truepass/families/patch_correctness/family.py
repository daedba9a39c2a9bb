"""The patch-correctness family: is a patch that passes the visible tests correct, or does it
overfit them? A label answer is right or wrong against the label the hidden tests gave the patch
(docs/patch-correctness-format.md). Demonstrations (``--shots K``) are other patches of the suite,
through the leakage guard of :mod:`truepass.prompts.retrieval`, chosen by ``--context``: mixed
(correct and overfitting alternating, the default), correct-only or overfitting-only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from truepass.answers import Answer, Label
from truepass.families.base import Family
from truepass.families.patch_correctness.schema import LABELS, POSITIVE, PatchCorrectnessSample
from truepass.judged import JudgeConfig, Judged, SampleCheck, SampleHealth
from truepass.vocabulary import AnswerKind, CheckStatus, Verdict

if TYPE_CHECKING:
    from truepass.records import AttemptRecord
    from truepass.solvers.base import SolveContext
    from truepass.solvers.llm import LLMSolver

ALIASES = {"correct": "correct", "overfitting": "overfitting", "overfit": "overfitting",
           "overfitted": "overfitting"}  # fmt: skip
"""Decisions a label answer may spell (case and surrounding space aside) -> the label."""

UNPARSED = -1.0


def decision_of(label: Label | None) -> str | None:
    """The label a decision names, or None when it names neither."""
    if label is None:
        return None
    return ALIASES.get(label.decision.strip().lower())


def label_of(value: float) -> str | None:
    """``predicted_overfitting`` / ``gold_overfitting`` score -> label (None: unparsed)."""
    if value == UNPARSED:
        return None
    return POSITIVE if value >= 0.5 else "correct"


class PatchCorrectnessFamily(Family):
    """Label answers (``correct`` | ``overfitting``) judged against the sample's label."""

    name = "patch-correctness"
    sample_type = PatchCorrectnessSample
    answer_kinds = frozenset({AnswerKind.LABEL})
    prompt_variants = ("code-only",)
    context_types = ("mixed", "correct-only", "overfitting-only")

    def judge(
        self, sample: Any, answer: Answer | None, check: SampleCheck, config: JudgeConfig
    ) -> Judged:
        if not check.valid:
            return Judged(verdict=Verdict.INVALID_SAMPLE, details=check.reason)
        gold = float(sample.label == POSITIVE)
        said = decision_of(answer.label if answer is not None else None)
        if said is None:  # counted, and wrong: an unparsed answer is never dropped
            why = str(answer.meta.get("parse_detail", "")) if answer is not None else ""
            if answer is not None and answer.label is not None:
                why = f"the decision {answer.label.decision!r} is neither of {', '.join(LABELS)}"
            return Judged(
                verdict=Verdict.NO_PATCH,
                details=why or "no label in the answer",
                scores={"right": 0.0, "gold_overfitting": gold, "predicted_overfitting": UNPARSED},
            )
        assert answer is not None and answer.label is not None
        right = said == sample.label
        rationale = answer.label.rationale.strip()
        return Judged(
            verdict=Verdict.CORRECT if right else Verdict.FAILS_VISIBLE,
            patch=f"{said}\n\n{rationale}".strip(),
            details=f"answered {said}, the hidden tests say {sample.label}",
            scores={
                "right": float(right),
                "gold_overfitting": gold,
                "predicted_overfitting": float(said == POSITIVE),
            },
        )

    def reference_answer(self, sample: Any) -> Answer:
        why = "the reference fix" if sample.provenance == "reference" else "the hidden tests"
        return Answer(label=Label(decision=sample.label, rationale=f"as {why} say"),
                      patch_id="reference")  # fmt: skip

    def null_answer(self, sample: Any) -> Answer | None:
        return None

    def health(self, sample: Any, check: SampleCheck, config: JudgeConfig) -> SampleHealth:
        """The reference answer (the sample's own label) must be judged right."""
        health = SampleHealth(
            sample_id=sample.id, defect_type=self.category(sample), valid=check.valid, reference="-"
        )
        if not check.valid:
            health.flag(check.status, f"invalid: {check.reason}")
            return health
        ref = self.judge(sample, self.reference_answer(sample), check, config)
        health.reference = ref.verdict.value
        if ref.scores.get("right") != 1.0:
            health.flag(CheckStatus.REFERENCE_FAILS, f"the sample's own label is judged {ref}")
        return health

    def metrics(self, records: list[AttemptRecord]) -> dict[str, float]:
        """:func:`truepass.metrics.labels.label_metrics` over counted attempts (positive class
        ``overfitting``; an unparsed answer is wrong and counts in ``unparsed_rate``), read from
        each record's scores alone, with a 95% bootstrap interval of the accuracy
        (``accuracy_ci_low``, ``accuracy_ci_high``; resampling attempts, seed 0)."""
        from truepass.metrics.bootstrap import bootstrap_ci
        from truepass.metrics.labels import label_metrics
        from truepass.vocabulary import counted

        scored = [
            r.scores for r in records if counted(r.verdict) and "gold_overfitting" in r.scores
        ]
        if not scored:
            return {}
        gold = [label_of(s["gold_overfitting"]) or "correct" for s in scored]
        predicted = [label_of(s.get("predicted_overfitting", UNPARSED)) for s in scored]
        out = {k: round(v, 4) for k, v in label_metrics(gold, predicted, POSITIVE).items()}
        ci = bootstrap_ci([float(p == g) for g, p in zip(gold, predicted, strict=True)])
        if ci is not None:
            out["accuracy_ci_low"], out["accuracy_ci_high"] = round(ci[0], 4), round(ci[1], 4)
        return out

    def ask_model(
        self, solver: LLMSolver, sample: Any, attempt: int, ctx: SolveContext
    ) -> Answer | None:
        from truepass.families.patch_correctness.model import ask_for_label

        return ask_for_label(self, solver, sample, attempt, ctx)
