"""The judge's side of the workflow: was a correct candidate there, and did selection take it?

A solver that chooses its answer among candidates lists them in ``answer.meta["candidates"]``
(entries with an ``id`` and a ``diff``; the workflow's :class:`~.meta.Candidate`). The solver
never sees the hidden tests, so it cannot know; the judge can.
:func:`truepass.families.repair.workflow.judging.judge_candidates` (called by the repair judge)
judges each
distinct candidate once, without reruns, and records in the attempt's ``scores``:

- ``candidates_judged``: distinct candidates judged;
- ``candidates_correct``: how many were judged correct with no fake-fix flag;
- ``candidates_correct_exists``: 1 when one was, 0 when none was (absent when a candidate's
  judging failed and none was correct: unknown);
- ``candidates_selection_right``: when a correct candidate existed, 1 when the answer is correct
  (selection took one), else 0.

and each candidate's verdict in ``details``. :func:`candidate_metrics` gives their means per
solver (``summary.json``'s ``metrics``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from truepass.answers import Answer
from truepass.judged import JudgeConfig, Judged, SampleCheck
from truepass.records import is_correct
from truepass.vocabulary import counted

if TYPE_CHECKING:
    from truepass.families.base import Family
    from truepass.records import AttemptRecord

CANDIDATES = "candidates"
"""the ``answer.meta`` key listing the candidates an answer was chosen among"""


class CandidateRef(BaseModel):
    """What the judge reads of a listed candidate."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str
    diff: str | None = None
    duplicate_of: str | None = None


def candidates_of(answer: Answer | None) -> list[CandidateRef] | None:
    """The candidates ``answer`` lists (None when it lists none: not a choosing solver's)."""
    raw = answer.meta.get(CANDIDATES) if answer is not None else None
    if not isinstance(raw, list):
        return None
    out = []
    for item in raw:
        try:
            out.append(CandidateRef.model_validate(item))
        except ValidationError:
            continue
    return out


def judge_candidates(
    family: Family,
    sample: Any,
    answer: Answer | None,
    check: SampleCheck,
    config: JudgeConfig,
    judged: Judged,
) -> None:
    """Judge every distinct candidate ``answer`` lists and record the scores above in
    ``judged`` (the answer's own judgement); nothing when it lists none."""
    refs = candidates_of(answer)
    if refs is None or not check.valid:
        return
    quick = config.model_copy(update={"reruns": 0})
    own = answer.diff if answer is not None and not answer.no_patch else None
    verdicts: list[str] = []
    right = infra = 0
    for ref in refs:
        if ref.diff is None or ref.duplicate_of is not None:
            continue
        if ref.diff == own:
            result, mark = judged, " (the answer)"
        else:
            result = family.judge(sample, Answer(diff=ref.diff, patch_id=ref.id), check, quick)
            mark = ""
        right += is_correct(result)
        infra += not counted(result.verdict)
        verdicts.append(f"{ref.id} {result.verdict.value}{mark}")
    scores = {"candidates_judged": float(len(verdicts)), "candidates_correct": float(right)}
    if right or not infra:
        scores["candidates_correct_exists"] = float(right > 0)
    if right:
        scores["candidates_selection_right"] = float(is_correct(judged))
    judged.scores.update(scores)
    if verdicts:
        judged.details += f"candidates: {', '.join(verdicts)}. "


def candidate_metrics(records: list[AttemptRecord]) -> dict[str, float]:
    """Per solver, over its counted attempts that list candidates: the mean number of correct
    candidates, the share of attempts where a correct one existed, and among those, the share
    where selection took one (``candidates_selection_accuracy``). Empty for other solvers."""
    scored = [r.scores for r in records if counted(r.verdict) and "candidates_judged" in r.scores]
    if not scored:
        return {}

    def mean(key: str) -> float | None:
        values = [s[key] for s in scored if key in s]
        return round(sum(values) / len(values), 4) if values else None

    out = {
        "candidates_correct": mean("candidates_correct"),
        "candidates_correct_exists": mean("candidates_correct_exists"),
        "candidates_selection_accuracy": mean("candidates_selection_right"),
    }
    return {k: v for k, v in out.items() if v is not None}
