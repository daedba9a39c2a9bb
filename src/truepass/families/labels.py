"""Label families: an answer is one of two labels with its rationale, judged right or wrong
against the sample's gold label, with classification metrics (review: accept or reject;
patch-correctness: correct or overfitting).

A label family sets :attr:`LabelFamily.labels` (the scored class second), says what its
sample's gold label is (:meth:`LabelFamily.gold`) and why (:meth:`LabelFamily.reference_rationale`,
what ``oracle`` answers with), and how a record shows an answer (:attr:`answer_format`); the
judge, the scores, the metrics and ``check-suite``'s reference check are the same for all.

Scores (per attempt, so the metrics are recomputable from records alone), with ``SCORED`` the
second label: ``gold_SCORED`` (1/0), ``predicted_SCORED`` (1/0, -1 when no label could be read)
and ``right`` (1/0). The positive class of precision, recall and F1 is the family's
:attr:`LabelFamily.default_positive` (else the second label) or the one ``run --family-option
positive=LABEL`` chose (the :class:`~truepass.families.capabilities.Configured` capability): it
changes the metrics only, never the scores, so records read the same under either.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from truepass.answers import Answer, Label
from truepass.families.base import Family
from truepass.judged import JudgeConfig, Judged, SampleCheck
from truepass.vocabulary import AnswerKind, CheckStatus, Verdict

if TYPE_CHECKING:
    from truepass.records import AttemptRecord

UNPARSED = -1.0
"""``predicted_POSITIVE`` of an answer whose label could not be read."""


class LabelFamily(Family):
    """Label answers judged against the sample's gold label, with label metrics
    (:func:`truepass.metrics.labels.label_metrics`) with bootstrap intervals."""

    answer_kinds = frozenset({AnswerKind.LABEL})
    main_metrics = ("accuracy", "f1")
    reference_fails_as = CheckStatus.REFERENCE_FAILS
    labels: ClassVar[tuple[str, str]]
    """The two labels; the scores name the second (:attr:`scored`), the positive class of
    precision, recall and F1 unless :attr:`default_positive` or an option says otherwise."""
    aliases: ClassVar[Mapping[str, str]] = {}
    """Other spellings a decision may use (lower case) -> the label."""
    answer_format: ClassVar[str] = "{label}\n\n{rationale}"
    """How a judged record's ``patch`` shows an answer (``label``, ``rationale``)."""
    gold_source: ClassVar[str] = "the gold label is"
    """What the gold label is, in a judged record's ``details`` ("answered X, SOURCE Y")."""

    default_positive: ClassVar[str | None] = None
    """The positive class of the metrics unless ``--family-option positive=LABEL`` says
    otherwise (None: ``labels[1]``)."""
    _chosen: str | None = None

    @property
    def positive(self) -> str:
        """The positive class of precision, recall and F1."""
        return self._chosen or self.default_positive or self.labels[1]

    @property
    def scored(self) -> str:
        """The class the per-attempt scores name (``gold_SCORED``, ``predicted_SCORED``):
        ``labels[1]``, whatever the positive class, so records read the same under any."""
        return self.labels[1]

    def configure(self, options: Mapping[str, str]) -> None:
        """``positive``: one of :attr:`labels` (the class the metrics call positive)."""
        from truepass.errors import InputError

        for key, value in options.items():
            if key != "positive":
                raise InputError(f"the {self.name} family has no option '{key}' (it has: "
                                 "positive)", field="--family-option")  # fmt: skip
            said = value.strip().lower()
            if said not in self.labels:
                classes = " and ".join(self.labels)
                raise InputError(f"positive={value}: the {self.name} family's classes are "
                                 f"{classes}", field="--family-option")  # fmt: skip
            self._chosen = said

    def options(self) -> dict[str, str]:
        return {"positive": self.positive}

    def gold(self, sample: Any) -> str:
        """The sample's gold label (one of :attr:`labels`)."""
        raise NotImplementedError

    def reference_rationale(self, sample: Any) -> str:
        """The rationale of the reference answer (what ``oracle`` answers with)."""
        return ""

    def label_of(self, label: Label | None) -> str | None:
        """The label a decision names (case and surrounding space aside, :attr:`aliases` read
        as what they stand for), or None when it names neither."""
        if label is None:
            return None
        said = label.decision.strip().lower()
        return said if said in self.labels else self.aliases.get(said)

    def _scored_label(self, value: float) -> str | None:
        if value == UNPARSED:
            return None
        return self.labels[1] if value >= 0.5 else self.labels[0]

    def judge(
        self, sample: Any, answer: Answer | None, check: SampleCheck, config: JudgeConfig
    ) -> Judged:
        if not check.valid:
            return Judged(verdict=Verdict.INVALID_SAMPLE, details=check.reason)
        gold = self.gold(sample)
        label = answer.label if answer is not None and not answer.no_patch else None
        said = self.label_of(label)
        scores = {f"gold_{self.scored}": float(gold == self.scored)}
        if said is None:  # counted, and wrong: an unparsed answer is never dropped
            why = str(answer.meta.get("parse_detail", "")) if answer is not None else ""
            if label is not None:
                why = f"decision {label.decision!r} is neither {' nor '.join(self.labels)}"
            return Judged(
                verdict=Verdict.NO_PATCH,
                details=why or "no label in the answer",
                patch=self._shown(label.decision, label.rationale) if label else "",
                scores={**scores, f"predicted_{self.scored}": UNPARSED, "right": 0.0},
            )
        assert label is not None
        right = said == gold
        return Judged(
            verdict=Verdict.CORRECT if right else Verdict.FAILS_VISIBLE,
            details=f"answered {said}, {self.gold_source} {gold}",
            patch=self._shown(said, label.rationale),
            scores={
                **scores,
                f"predicted_{self.scored}": float(said == self.scored),
                "right": float(right),
            },
        )

    def _shown(self, said: str, rationale: str) -> str:
        return self.answer_format.format(label=said, rationale=rationale.strip()).strip()

    def reference_answer(self, sample: Any) -> Answer:
        rationale = self.reference_rationale(sample)
        return Answer(label=Label(decision=self.gold(sample), rationale=rationale),
                      patch_id="reference")  # fmt: skip

    def reference_problem(self, reference: Judged) -> str | None:
        """The reference answer (the sample's own label) must be judged right."""
        if reference.verdict is Verdict.CORRECT:
            return None
        return f"the reference label is judged {reference.verdict.value}: {reference.details}"

    def metrics(self, records: list[AttemptRecord]) -> dict[str, float]:
        """:func:`truepass.metrics.labels.label_metrics` over counted attempts, with
        :attr:`positive` the positive class (accuracy, precision, recall, f1, ``recall[CLASS]``,
        balanced accuracy, unparsed rate, majority and random baselines; an unparsed answer is
        wrong and counts in ``unparsed_rate``), read from each record's scores alone, with 95%
        bootstrap intervals of accuracy, precision, recall, F1 and balanced accuracy
        (``NAME_ci_low``, ``NAME_ci_high``; resampling attempts, seed 0)."""
        from truepass.metrics.labels import label_intervals, label_metrics
        from truepass.vocabulary import counted

        gold_key, said_key = f"gold_{self.scored}", f"predicted_{self.scored}"
        scored = [r.scores for r in records if counted(r.verdict) and gold_key in r.scores]
        if not scored:
            return {}
        gold = [self._scored_label(s[gold_key]) or self.labels[0] for s in scored]
        predicted = [self._scored_label(s.get(said_key, UNPARSED)) for s in scored]
        out = {k: round(v, 4) for k, v in label_metrics(gold, predicted, self.positive).items()}
        return out | label_intervals(gold, predicted, self.positive)
