"""The benchmark's scoring of rebuild attempts (ProgramBench, docs/rebuild-format.md "Scores").

Every formula is a function of plain values here, so that each can be checked by hand:

* ``resolved`` and ``almost`` are per task: a task's score is the share of its attempts that
  pass every test (``almost``: at least 95% of them), and the rate is the mean over the tasks
  attempted. An attempt that ended in an infrastructure error (after its retries) is a failure,
  never dropped; how many there were is reported apart (``infra_errors``).
* the pass rate is the mean over tasks of the mean pass rate of their attempts, the same way;
* the structure comparison takes only solutions passing at least 75% of their tests;
* the language mix is over built submissions, and the same-language rate is the share of them
  written in the gold's own language.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from truepass.metrics.tree import Submission

ALMOST = 0.95
"""An attempt is *almost* resolved when it passes at least this share of the tests."""
STRUCTURE_MIN = 0.75
"""Only solutions passing at least this share of the tests enter the structure comparison."""
STRUCTURE = ("files", "depth", "functions", "mean_function_length")
BUCKETS = ("easy", "medium", "hard")


def difficulty(loc: int, dependencies: int) -> float:
    """clamp(log10(lines of code) + log10(1 + runtime dependencies) - 2, 0, 10)."""
    raw = math.log10(max(loc, 1)) + math.log10(1 + dependencies) - 2
    return min(10.0, max(0.0, raw))


def difficulty_bucket(value: float) -> str:
    """The benchmark's buckets: easy below 2, medium from 2 to below 4, hard from 4."""
    if value < 2:
        return "easy"
    return "medium" if value < 4 else "hard"


def same_language(submitted: str, gold: str) -> bool:
    """Whether a submission's language (``Rust``) is the gold's (``rust``): names compared
    without case."""
    return submitted.casefold() == gold.casefold()


@dataclass(frozen=True)
class Attempt:
    """What the scoring needs of one attempt at one task."""

    task: str
    pass_rate: float
    resolved: bool
    infra: bool = False
    bucket: str = "easy"
    submission: Submission | None = None
    original: dict[str, float] | None = None
    gold_language: str = "c"


def _per_task(attempts: Iterable[Attempt], value: str) -> dict[str, float]:
    """Task -> the mean over its attempts of ``value`` (an infra error counts 0)."""
    by_task: dict[str, list[float]] = defaultdict(list)
    for a in attempts:
        if value == "pass_rate":
            score = 0.0 if a.infra else a.pass_rate
        elif value == "resolved":
            score = float(a.resolved and not a.infra)
        else:  # almost
            score = float(not a.infra and a.pass_rate >= ALMOST)
        by_task[a.task].append(score)
    return {task: sum(v) / len(v) for task, v in by_task.items()}


def task_rates(attempts: Sequence[Attempt], value: str) -> list[float]:
    """Per task (sorted by id): the share of its attempts that score on ``value``
    (``pass_rate``: their mean pass rate; ``resolved``; ``almost``)."""
    per = _per_task(attempts, value)
    return [per[t] for t in sorted(per)]


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def structure(attempts: Sequence[Attempt]) -> dict[str, float]:
    """Mean structure of the solutions passing at least :data:`STRUCTURE_MIN` of their tests
    (``submission_KEY``), beside the originals' of the same tasks (``original_KEY``), and how
    many solutions that is (``structure_n``)."""
    good = [
        a
        for a in attempts
        if not a.infra and a.submission is not None and a.pass_rate >= STRUCTURE_MIN
    ]
    out: dict[str, float] = {"structure_n": float(len(good))}
    if not good:
        return out
    for key in STRUCTURE:
        out[f"submission_{key}"] = round(mean([float(getattr(a.submission, key)) for a in good]), 2)
        originals = [a.original[key] for a in good if a.original and key in a.original]
        if originals:
            out[f"original_{key}"] = round(mean(originals), 2)
    return out


def languages(attempts: Sequence[Attempt]) -> dict[str, float]:
    """Over built submissions: the share in each language (``language_NAME``) and the share
    written in the gold's own language (``same_language``)."""
    built = [a for a in attempts if not a.infra and a.submission is not None]
    if not built:
        return {}
    out: dict[str, float] = {}
    for name in sorted({a.submission.language for a in built if a.submission}):
        share = sum(a.submission is not None and a.submission.language == name for a in built)
        out[f"language_{name}"] = round(share / len(built), 4)
    same = sum(
        a.submission is not None and same_language(a.submission.language, a.gold_language)
        for a in built
    )
    out["same_language"] = round(same / len(built), 4)
    return out


def scores(attempts: Sequence[Attempt]) -> dict[str, float]:
    """Every per-task rate (``pass_rate``, ``resolved``, ``almost``; ``pass_rate_BUCKET``),
    ``tasks``, ``infra_errors`` (attempts that ended in one, counted as failures), the structure
    comparison and the language shares."""
    if not attempts:
        return {}
    out: dict[str, float] = {
        "tasks": float(len({a.task for a in attempts})),
        "pass_rate": round(mean(task_rates(attempts, "pass_rate")), 4),
        "resolved": round(mean(task_rates(attempts, "resolved")), 4),
        "almost": round(mean(task_rates(attempts, "almost")), 4),
        "infra_errors": float(sum(a.infra for a in attempts)),
    }
    for bucket in BUCKETS:
        inside = [a for a in attempts if a.bucket == bucket]
        if inside:
            out[f"pass_rate_{bucket}"] = round(mean(task_rates(inside, "pass_rate")), 4)
            out[f"resolved_{bucket}"] = round(mean(task_rates(inside, "resolved")), 4)
    out.update(structure(attempts))
    out.update(languages(attempts))
    return out
