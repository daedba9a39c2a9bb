"""What the families judged without running code share: the health check's reference test
(``Family.reference_problem``), and the label judge and metrics (``families/labels.py``)."""

from __future__ import annotations

from family_lines import PATCH, REVIEW, SUMMARIZE

from truepass.answers import Answer, Label
from truepass.families.patch_correctness.family import PatchCorrectnessFamily
from truepass.families.review.family import ReviewFamily
from truepass.families.summarize.family import SummarizeFamily
from truepass.judged import JudgeConfig, SampleCheck


def test_families_judged_without_code_flag_an_imperfect_reference_as_reference_fails() -> None:
    """The shared health check with each family's idea of a perfect reference answer."""

    class Contrary(ReviewFamily):  # its reference answer is the other decision
        def reference_answer(self, sample: object) -> Answer:
            return Answer(label=Label(decision="accept"))

    config = JudgeConfig()
    cases = [
        (SummarizeFamily(), SUMMARIZE | {"docstring": "..."}, "the reference summary scores {"),
        (Contrary(), REVIEW, "the reference label is judged fails-visible: answered accept"),
        (ReviewFamily(), REVIEW, None),
        (PatchCorrectnessFamily(), PATCH, None),
        (SummarizeFamily(), SUMMARIZE, None),
    ]
    for family, line, problem in cases:
        sample = family.sample_type.model_validate(line)
        check = SampleCheck(sample_id=line["id"], valid=True)
        health = family.health(sample, check, config)
        assert health.noop is None and health.flaky_tests == []
        if problem is None:
            assert health.status == "ok" and not health.problems, health
        else:
            assert health.status == "reference-fails", health
            assert health.problems[0].startswith(problem)


def test_both_label_families_judge_with_the_one_label_judge() -> None:
    check, config = SampleCheck(sample_id="x", valid=True), JudgeConfig()
    review, patch = ReviewFamily(), PatchCorrectnessFamily()
    r, p = review.sample_type.model_validate(REVIEW), patch.sample_type.model_validate(PATCH)

    def said(family: object, sample: object, decision: str, why: str = "because") -> object:
        answer = Answer(label=Label(decision=decision, rationale=why))
        return family.judge(sample, answer, check, config)  # type: ignore[attr-defined]

    right = said(patch, p, " OVERFIT ")  # an alias, in any case
    assert right.verdict == "correct" and right.patch == "overfitting\n\nbecause"
    assert right.details == "answered overfitting, the hidden tests say overfitting"
    wrong = said(review, r, "accept")
    assert wrong.verdict == "fails-visible" and wrong.patch == "Decision: accept\nbecause"
    assert wrong.details == "answered accept, the review ended in reject"
    assert wrong.scores == {"gold_reject": 1.0, "predicted_reject": 0.0, "right": 0.0}
    for family, sample, labels in ((review, r, "accept nor reject"),
                                   (patch, p, "correct nor overfitting")):  # fmt: skip
        unsure = said(family, sample, "approved")  # no alias of either family
        assert unsure.verdict == "no-patch"
        assert unsure.details == f"decision 'approved' is neither {labels}"
        assert -1.0 in unsure.scores.values() and unsure.scores["right"] == 0.0
    assert patch.reference_answer(p).label == Label(
        decision="overfitting", rationale="as the hidden tests say"
    )
