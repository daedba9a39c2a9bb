"""Cohen's kappa and the agreement of a reviewer's labels with truepass's verdicts (issue 28,
item 5), against values computed by hand."""

from __future__ import annotations

import pytest

from truepass.analysis.agreement import (
    CLASSES,
    LabelledAttempt,
    ReviewLabel,
    agreement,
    cohen_kappa,
    kappa_interval,
    truepass_class,
)
from truepass.vocabulary import Verdict

C, W = ReviewLabel.CORRECT.value, ReviewLabel.INCORRECT.value


def test_kappa_of_a_two_class_table_computed_by_hand() -> None:
    # rater a (rows) against rater b (columns): c/c 20, c/i 5, i/c 10, i/i 15 (50 items)
    a = [C] * 25 + [W] * 25
    b = [C] * 20 + [W] * 5 + [C] * 10 + [W] * 15
    po, pe, kappa = cohen_kappa(a, b, [C, W])
    # p_o = 35/50 = 0.7; p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa = (0.7 - 0.5) / 0.5 = 0.4
    assert po == pytest.approx(0.7)
    assert pe == pytest.approx(0.5)
    assert kappa == pytest.approx(0.4)
    low, high = kappa_interval(a, b, [C, W]) or (None, None)
    assert low is not None and high is not None and low < 0.4 < high


def test_kappa_of_a_three_class_table_computed_by_hand() -> None:
    # 10 items: a = c c c c o o o f f f ; b = c c c o o o f f f c
    a = ["correct"] * 4 + ["overfitting"] * 3 + ["fake"] * 3
    b = ["correct"] * 3 + ["overfitting"] * 3 + ["fake"] * 3 + ["correct"]
    po, pe, kappa = cohen_kappa(a, b, ["correct", "overfitting", "fake"])
    # agree on items 0-2, 4-5, 7-8: 7 of 10; p_e = .4*.4 + .3*.3 + .3*.3 = .34
    assert po == pytest.approx(0.7)
    assert pe == pytest.approx(0.34)
    assert kappa == pytest.approx((0.7 - 0.34) / 0.66)


def test_kappa_is_undefined_when_both_raters_give_one_class() -> None:
    assert cohen_kappa([C, C], [C, C], [C, W]) == (1.0, 1.0, None)
    assert cohen_kappa([], [], [C, W]) == (None, None, None)


@pytest.mark.parametrize(
    ("verdict", "flags", "expected"),
    [
        (Verdict.CORRECT, [], ReviewLabel.CORRECT),
        (Verdict.CORRECT, ["special-cases-input"], ReviewLabel.FAKE),
        (Verdict.OVERFIT, [], ReviewLabel.OVERFITTING),
        (Verdict.PLAUSIBLE, [], ReviewLabel.OVERFITTING),
        (Verdict.OVERFIT, ["touches-tests"], ReviewLabel.FAKE),
        (Verdict.CORRECT, ["flaky"], ReviewLabel.CORRECT),
        (Verdict.CORRECT, ["differs-from-reference"], ReviewLabel.OVERFITTING),
        (Verdict.CORRECT, ["differs-from-reference", "touches-tests"], ReviewLabel.FAKE),
        (Verdict.FAILS_VISIBLE, [], ReviewLabel.INCORRECT),
        (Verdict.FAILS_VISIBLE, ["special-cases-input"], ReviewLabel.INCORRECT),
        (Verdict.NO_PATCH, [], ReviewLabel.INCORRECT),
        (Verdict.APPLY_FAILED, [], ReviewLabel.INCORRECT),
    ],
)
def test_verdicts_as_reviewer_classes(
    verdict: Verdict, flags: list[str], expected: ReviewLabel
) -> None:
    assert truepass_class(verdict, flags) is expected


def _item(n: int, ours: ReviewLabel, theirs: ReviewLabel) -> LabelledAttempt:
    return LabelledAttempt(key=f"s/x{n}/0", solver="s", sample_id=f"x{n}", attempt=0,
                           verdict="correct", flags=[], truepass=ours, reviewer=theirs)  # fmt: skip


def test_agreement_leaves_unsure_out_and_lists_disagreements() -> None:
    R = ReviewLabel
    items = [
        _item(1, R.CORRECT, R.CORRECT),
        _item(2, R.CORRECT, R.OVERFITTING),
        _item(3, R.OVERFITTING, R.OVERFITTING),
        _item(4, R.INCORRECT, R.INCORRECT),
        _item(5, R.FAKE, R.UNSURE),
    ]
    found = agreement(items, sheets=["abc"])
    assert (found.labelled, found.unsure, found.compared) == (5, 1, 4)
    assert found.classes == list(CLASSES)
    row = {c: found.confusion[i] for i, c in enumerate(CLASSES)}
    assert row[R.CORRECT] == [1, 1, 0, 0]  # columns: correct, overfitting, fake, incorrect
    assert row[R.OVERFITTING] == [0, 1, 0, 0]
    assert row[R.INCORRECT] == [0, 0, 0, 1]
    assert row[R.FAKE] == [0, 0, 0, 0]
    # p_o = 3/4; truepass: c 2, o 1, i 1; reviewer: c 1, o 2, i 1; p_e = (2 + 2 + 1) / 16
    assert found.observed == pytest.approx(0.75)
    assert found.expected == pytest.approx(round(5 / 16, 4))
    assert found.kappa == pytest.approx(round((0.75 - 5 / 16) / (1 - 5 / 16), 4))
    assert [d.sample_id for d in found.disagreements] == ["x2"]
