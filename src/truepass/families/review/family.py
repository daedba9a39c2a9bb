"""The code-review family: a change and its description in, a decision (``accept`` or
``reject``) with its rationale out, judged against the decision the project's reviewers took
(docs/review-format.md). Demonstrations (``--shots K``) come from the suite itself through the
leakage guard of :mod:`truepass.prompts.retrieval`: only earlier reviews of the same project,
never the target or a near-duplicate of its diff; ``--context dialogue`` (the default) shows
each one's whole review dialogue and outcome, ``--context decision-only`` its outcome alone.

Scores (per attempt, so the metrics are recomputable from records alone; see
:mod:`truepass.families.labels`): ``gold_reject`` (1/0), ``predicted_reject`` (1/0, -1 when no
decision could be read) and ``right`` (1/0). The metrics' positive class is ``accept``, as in the
CL4SE study (seed 000: its 1,191 positive samples are the accepted changes, its 725 negative ones
the rejected), or ``reject`` with ``run --family-option positive=reject``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from truepass.families.base import AnswerKey
from truepass.families.labels import LabelFamily
from truepass.families.review.schema import DECISIONS, ReviewSample

if TYPE_CHECKING:
    from truepass.answers import Answer
    from truepass.families.formats import SuiteFormat
    from truepass.solvers.base import SolveContext
    from truepass.solvers.capabilities import ModelAsker

MIN_LEAK_CHARS = 20
"""A turn shorter than this ("LGTM, thanks!") may occur in a prompt by chance."""


class ReviewFamily(LabelFamily):
    """Label answers judged against the review's outcome, with classification metrics."""

    name = "review"
    sample_type = ReviewSample
    labels = DECISIONS  # the scores name reject (gold_reject, predicted_reject)
    default_positive = "accept"  # CL4SE's positive class: accepted changes
    answer_format = "Decision: {label}\n{rationale}"
    gold_source = "the review ended in"
    prompt_variants = ("code-only",)
    context_types = ("dialogue", "decision-only")

    @classmethod
    def suite_formats(cls) -> tuple[SuiteFormat, ...]:
        from truepass.families.review.adapter import FORMAT

        return (FORMAT,)

    def gold(self, sample: Any) -> str:
        return str(sample.decision)

    def reference_rationale(self, sample: Any) -> str:
        """The reviewers' reason: the turning point's text, else the last reviewer turn's."""
        turns = [t for t in sample.dialogue if t.turning_point]
        turns = turns or [t for t in sample.dialogue if t.role == "reviewer"]
        return str(turns[-1].text) if turns else ""

    def answer_key(self, sample: Any) -> AnswerKey:
        """The turns of the review's own dialogue (20+ characters, white space normalised; the
        rationale of its decision is one of them) that its diff, files and description do not
        already hold."""
        return AnswerKey.distinctive(
            [(t.text, f"its review dialogue (turn {i}, {t.role})")
             for i, t in enumerate(sample.dialogue, start=1)],
            min_chars=MIN_LEAK_CHARS,
            shown=[sample.change.diff, sample.description, *sample.change.files.values()],
        )  # fmt: skip

    def ask_model(
        self, solver: ModelAsker, sample: Any, attempt: int, ctx: SolveContext
    ) -> Answer | None:
        from truepass.families.review.model import ask_for_decision

        return ask_for_decision(self, solver, sample, attempt, ctx)


FAMILY = ReviewFamily
