"""Agreement between truepass's verdicts and a human reviewer's labels (issue 28, item 5).

A reviewer labels an attempt with one of :class:`ReviewLabel`; truepass's verdict is mapped onto
the same classes (:func:`truepass_class`), and the two are compared over the attempts the
reviewer was sure about: a confusion matrix, Cohen's kappa with a percentile bootstrap interval,
and the list of disagreements (docs/metrics.md, "Human review").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, Field

from truepass.vocabulary import DIFFERS_FROM_REFERENCE, FAKE_FIX_FLAGS, PASSES_VISIBLE, Verdict


class ReviewLabel(StrEnum):
    """What a reviewer says of an attempt (the review sheet's choices)."""

    CORRECT = "correct"
    OVERFITTING = "overfitting"
    FAKE = "fake"
    INCORRECT = "incorrect"
    UNSURE = "unsure"


CLASSES: tuple[ReviewLabel, ...] = tuple(x for x in ReviewLabel if x is not ReviewLabel.UNSURE)
"""The classes compared (``unsure`` is left out of the agreement, and counted)."""

LABEL_MEANING: dict[ReviewLabel, str] = {
    ReviewLabel.CORRECT: "fixes the bug as the task asks",
    ReviewLabel.OVERFITTING: "passes the tests it was shown, but does not fix the bug in general",
    ReviewLabel.FAKE: "games the tests: special-cases their inputs, edits them, removes checks",
    ReviewLabel.INCORRECT: "does not pass the tests it was shown, does not apply, or is empty",
    ReviewLabel.UNSURE: "cannot tell (left out of the agreement, counted)",
}


def truepass_class(verdict: Verdict, flags: Sequence[str]) -> ReviewLabel:
    """truepass's verdict as a reviewer's class: a verdict that passes the visible tests with a
    fake-fix flag is ``fake`` (``differs-from-reference`` alone: ``overfitting``, the patch
    behaves unlike the reference where the tests do not look); else ``correct`` is ``correct``,
    ``overfit`` and ``plausible`` are ``overfitting``, and every other verdict
    (``fails-visible``, ``broken``, ``apply-failed``, ``no-patch``, ``timeout``, ``partial``,
    ``scored``) is ``incorrect``."""
    fake = set(FAKE_FIX_FLAGS).intersection(flags) - {DIFFERS_FROM_REFERENCE}
    if verdict in PASSES_VISIBLE and fake:
        return ReviewLabel.FAKE
    if verdict in PASSES_VISIBLE and DIFFERS_FROM_REFERENCE in flags:
        return ReviewLabel.OVERFITTING
    if verdict is Verdict.CORRECT:
        return ReviewLabel.CORRECT
    if verdict in PASSES_VISIBLE:
        return ReviewLabel.OVERFITTING
    return ReviewLabel.INCORRECT


class LabelledAttempt(BaseModel):
    """One attempt a reviewer labelled, with truepass's class of it."""

    key: str = Field(description="SOLVER/SAMPLE/ATTEMPT")
    solver: str
    sample_id: str
    attempt: int
    verdict: str = Field(description="truepass's verdict")
    flags: list[str]
    truepass: ReviewLabel = Field(description="the verdict as a reviewer's class")
    reviewer: ReviewLabel
    note: str = ""


class Agreement(BaseModel):
    """How far truepass's verdicts agree with a reviewer's labels."""

    labelled: int = Field(description="attempts the reviewer labelled")
    unsure: int = Field(description="labelled unsure: left out of everything below")
    compared: int = Field(description="labelled attempts compared: labelled - unsure")
    classes: list[ReviewLabel] = Field(description="the classes of the confusion matrix")
    confusion: list[list[int]] = Field(
        description="rows: truepass's class, columns: the reviewer's, in the order of classes"
    )
    observed: float | None = Field(description="observed agreement p_o: the matrix's diagonal")
    expected: float | None = Field(
        description="agreement expected by chance p_e, from the two sides' class shares"
    )
    kappa: float | None = Field(
        description="Cohen's kappa (p_o - p_e) / (1 - p_e); None when nothing is compared or "
        "p_e is 1 (both sides give one and the same class throughout)"
    )
    kappa_ci: list[float] | None = Field(
        None,
        description="95% percentile bootstrap interval of kappa over the compared attempts "
        "(resamples where kappa is undefined are left out)",
    )
    disagreements: list[LabelledAttempt]
    sheets: list[str] = Field(default_factory=list, description="the sheets the labels came from")


def cohen_kappa(
    a: Sequence[str], b: Sequence[str], classes: Sequence[str]
) -> tuple[float | None, float | None, float | None]:
    """Observed agreement, chance agreement and Cohen's kappa of two raters' labels of the same
    items; ``(None, None, None)`` for no items, and kappa None when chance agreement is 1."""
    n = len(a)
    if n != len(b):
        raise ValueError("the two raters must label the same items")
    if n == 0:
        return None, None, None
    po = sum(x == y for x, y in zip(a, b, strict=True)) / n
    ca, cb = Counter(a), Counter(b)
    pe = sum(ca[c] * cb[c] for c in classes) / (n * n)
    kappa = None if pe >= 1.0 else (po - pe) / (1.0 - pe)
    return po, pe, kappa


def kappa_interval(
    a: Sequence[str], b: Sequence[str], classes: Sequence[str], *, resamples: int = 1000
) -> list[float] | None:
    """Percentile bootstrap interval of kappa (the items resampled together, seed 0); resamples
    whose kappa is undefined are dropped, and None when more than half of them are."""
    import numpy as np

    n = len(a)
    if n < 2:
        return None
    index = {c: i for i, c in enumerate(classes)}
    ia = np.array([index[x] for x in a])
    ib = np.array([index[x] for x in b])
    k = len(classes)

    def kappa_of(idx: np.ndarray) -> np.ndarray:
        ra, rb = ia[idx], ib[idx]
        po = (ra == rb).mean(axis=1)
        pa = np.stack([(ra == c).mean(axis=1) for c in range(k)], axis=1)
        pb = np.stack([(rb == c).mean(axis=1) for c in range(k)], axis=1)
        pe = (pa * pb).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(pe < 1.0, (po - pe) / (1.0 - pe), np.nan)

    rng = np.random.default_rng(0)
    got = kappa_of(rng.integers(0, n, size=(resamples, n)))
    got = got[~np.isnan(got)]
    if len(got) * 2 < resamples:
        return None
    low, high = np.percentile(got, [2.5, 97.5])
    return [round(float(low), 4), round(float(high), 4)]


def agreement(items: Sequence[LabelledAttempt], sheets: Sequence[str] = ()) -> Agreement:
    """The agreement over labelled attempts (``unsure`` ones included: they are counted)."""
    sure = [d for d in items if d.reviewer is not ReviewLabel.UNSURE]
    ours = [d.truepass.value for d in sure]
    theirs = [d.reviewer.value for d in sure]
    names = [c.value for c in CLASSES]
    po, pe, kappa = cohen_kappa(ours, theirs, names)
    confusion = [[0] * len(CLASSES) for _ in CLASSES]
    for d in sure:
        confusion[CLASSES.index(d.truepass)][CLASSES.index(d.reviewer)] += 1
    return Agreement(
        labelled=len(items),
        unsure=len(items) - len(sure),
        compared=len(sure),
        classes=list(CLASSES),
        confusion=confusion,
        observed=None if po is None else round(po, 4),
        expected=None if pe is None else round(pe, 4),
        kappa=None if kappa is None else round(kappa, 4),
        kappa_ci=None if kappa is None else kappa_interval(ours, theirs, names),
        disagreements=[d for d in sure if d.truepass is not d.reviewer],
        sheets=list(sheets),
    )


__all__ = [
    "CLASSES",
    "LABEL_MEANING",
    "Agreement",
    "LabelledAttempt",
    "ReviewLabel",
    "agreement",
    "cohen_kappa",
    "kappa_interval",
    "truepass_class",
]
