"""The summarisation family: a function without its docstring in, a one-sentence summary out,
scored against the reference summary with the metrics the field reports (docs/summarize-format.md,
docs/metrics.md). Demonstrations (``--shots K``) come from the suite itself through the leakage
guard of :mod:`truepass.prompts.retrieval`: by default only from the same project
(``--context project``), never the target, a near-duplicate of it, or anything written later.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from truepass.answers import Answer
from truepass.families.base import AnswerKey, Family, interval
from truepass.families.summarize.schema import SummarizeSample
from truepass.judged import JudgeConfig, Judged, SampleCheck
from truepass.vocabulary import AnswerKind, CheckStatus, Verdict

if TYPE_CHECKING:
    from truepass.records import AttemptRecord
    from truepass.solvers.base import SolveContext
    from truepass.solvers.capabilities import ModelAsker

MIN_LEAK_CHARS = 12
"""A reference summary shorter than this ("Return x.") may occur in a prompt by chance."""


def _normalised(text: str) -> str:
    return " ".join(text.lower().split()).rstrip(".")


class SummarizeFamily(Family):
    """Text answers judged by BLEU, ROUGE and METEOR against the reference summary."""

    name = "summarize"
    sample_type = SummarizeSample
    answer_kinds = frozenset({AnswerKind.TEXT})
    prompt_variants = ("code-only",)
    context_types = ("project", "any")
    main_metrics = ("bleu", "rougeL", "meteor", "bertscore_minilm_l6")

    def judge(
        self, sample: Any, answer: Answer | None, check: SampleCheck, config: JudgeConfig
    ) -> Judged:
        from truepass.metrics.text import TEXT_SCORES, text_scores

        if not check.valid:
            return Judged(verdict=Verdict.INVALID_SAMPLE, details=check.reason)
        text = (answer.text or "").strip() if answer is not None else ""
        if not text:  # counted, with every score 0: an answer missing is never dropped
            why = str(answer.meta.get("parse_detail", "")) if answer else ""
            return Judged(
                verdict=Verdict.NO_PATCH,
                details=why or "no summary in the answer",
                scores={**dict.fromkeys(TEXT_SCORES, 0.0), "exact": 0.0},
            )
        scores = text_scores(text, sample.docstring)
        scores["exact"] = float(_normalised(text) == _normalised(sample.docstring))
        return Judged(verdict=Verdict.SCORED, patch=text, scores=scores)

    def reference_answer(self, sample: Any) -> Answer:
        return Answer(text=sample.docstring, patch_id="reference")

    reference_fails_as = CheckStatus.REFERENCE_FAILS

    def reference_problem(self, reference: Judged) -> str | None:
        """The reference summary must score as an exact match (the metrics see it whole)."""
        if reference.scores.get("exact") == 1.0 and reference.scores.get("rougeL", 0.0) >= 0.999:
            return None
        return f"the reference summary scores {reference.scores} alone"

    def answer_key(self, sample: Any) -> AnswerKey:
        """The reference summary (12+ characters, white space normalised), unless the code shown
        already holds it."""
        return AnswerKey.distinctive(
            [(sample.docstring, "reference summary")],
            min_chars=MIN_LEAK_CHARS,
            shown=[sample.code],
        )

    def metrics(self, records: list[AttemptRecord]) -> dict[str, float]:
        """The mean of every score over counted attempts, with a 95% bootstrap interval
        (``NAME_ci_low``, ``NAME_ci_high``; resampling attempts, seed 0)."""
        from truepass.vocabulary import counted

        scored = [r.scores for r in records if counted(r.verdict) and r.scores]
        out: dict[str, float] = {}
        for name in sorted({k for s in scored for k in s}):
            values = [s.get(name, 0.0) for s in scored]
            out[name] = round(sum(values) / len(values), 4)
            out |= interval(name, values)
        return out

    def ask_model(
        self, solver: ModelAsker, sample: Any, attempt: int, ctx: SolveContext
    ) -> Answer | None:
        from truepass.families.summarize.model import ask_for_summary

        return ask_for_summary(self, solver, sample, attempt, ctx)


FAMILY = SummarizeFamily
