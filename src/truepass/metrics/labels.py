"""Classification metrics of label answers (review decisions, patch-correctness judgements).

An answer whose label could not be parsed (``None``) is counted wrong, never dropped: it is a
miss for its gold class and counts in ``unparsed_rate``. Conventions as scikit-learn's with
``zero_division=0``. docs/metrics.md.
"""

from __future__ import annotations

from collections import Counter


def label_metrics(gold: list[str], predicted: list[str | None], positive: str) -> dict[str, float]:
    """Metrics of predicted labels against gold labels, all in 0..1.

    Keys:
        ``accuracy``: share of answers equal to their gold label (``None`` is wrong).
        ``precision``, ``recall``, ``f1``: of the class ``positive`` (0 where the denominator
        is 0: no answer said ``positive``, or no gold label is ``positive``).
        ``recall[CLASS]``: for every class in ``gold``, the share of its items answered right.
        ``balanced_accuracy``: the mean of those recalls.
        ``unparsed_rate``: share of answers that are ``None``.
        ``majority_baseline``: accuracy of always answering the most frequent gold class.
        ``random_baseline``: expected accuracy of answering uniformly at random among the
        classes seen in ``gold`` (``1 / number of classes``).

    An empty ``gold`` gives ``{}``.

    Raises:
        ValueError: ``gold`` and ``predicted`` differ in length.
    """
    if len(gold) != len(predicted):
        raise ValueError(
            f"label_metrics needs one answer per gold label "
            f"({len(gold)} gold labels, {len(predicted)} answers)"
        )
    n = len(gold)
    if n == 0:
        return {}
    support = Counter(gold)
    right = Counter(g for g, p in zip(gold, predicted, strict=True) if p == g)
    said_positive = sum(1 for p in predicted if p == positive)
    tp = right[positive]
    precision = _ratio(tp, said_positive)
    recall = _ratio(tp, support[positive])
    f1 = _ratio(2 * precision * recall, precision + recall)
    per_class = {cls: right[cls] / support[cls] for cls in sorted(support)}
    out = {
        "accuracy": sum(right.values()) / n,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        **{f"recall[{cls}]": value for cls, value in per_class.items()},
        "balanced_accuracy": sum(per_class.values()) / len(per_class),
        "unparsed_rate": sum(1 for p in predicted if p is None) / n,
        "majority_baseline": max(support.values()) / n,
        "random_baseline": 1 / len(support),
    }
    return out


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


INTERVAL_METRICS = ("accuracy", "precision", "recall", "f1", "balanced_accuracy")


def label_intervals(
    gold: list[str], predicted: list[str | None], positive: str, *, seed: int = 0
) -> dict[str, float]:
    """95% percentile-bootstrap intervals (resampling answers, seed 0) of the metrics of
    :data:`INTERVAL_METRICS`, as ``NAME_ci_low`` and ``NAME_ci_high``; each resample's values are
    computed as :func:`label_metrics` computes them (classes absent from a resample's gold
    labels left out of its balanced accuracy). Empty for no answers."""
    import numpy as np

    from truepass.metrics.bootstrap import bootstrap_cis

    if len(gold) != len(predicted):
        raise ValueError("label_intervals needs one answer per gold label")
    classes = sorted(set(gold))
    g = np.array([classes.index(x) for x in gold], dtype=np.int64)
    right = np.array([p == x for x, p in zip(gold, predicted, strict=True)])
    said_pos = np.array([p == positive for p in predicted])
    gold_pos = np.array([x == positive for x in gold])

    def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
        return np.divide(num, den, out=np.zeros(num.shape, dtype=float), where=den > 0)

    def statistics(idx: np.ndarray) -> dict[str, np.ndarray]:
        tp = (right & gold_pos)[idx].sum(axis=1).astype(float)
        precision = ratio(tp, said_pos[idx].sum(axis=1).astype(float))
        recall = ratio(tp, gold_pos[idx].sum(axis=1).astype(float))
        recalls, present = [], []
        for c in range(len(classes)):
            support = (g[idx] == c).sum(axis=1).astype(float)
            recalls.append(ratio((right & (g == c))[idx].sum(axis=1).astype(float), support))
            present.append(support > 0)
        balanced = ratio(np.sum(recalls, axis=0), np.sum(present, axis=0).astype(float))
        return {
            "accuracy": right[idx].mean(axis=1),
            "precision": precision,
            "recall": recall,
            "f1": ratio(2 * precision * recall, precision + recall),
            "balanced_accuracy": balanced,
        }

    out: dict[str, float] = {}
    for name, (low, high) in bootstrap_cis(len(gold), statistics, seed=seed).items():
        out[f"{name}_ci_low"], out[f"{name}_ci_high"] = round(low, 4), round(high, 4)
    return out
