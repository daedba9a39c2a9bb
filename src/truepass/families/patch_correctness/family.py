"""The patch-correctness family: is a patch that passes the visible tests correct, or does it
overfit them? A label answer is right or wrong against the label the hidden tests gave the patch
(docs/patch-correctness-format.md). Demonstrations (``--shots K``) are other patches of the suite,
through the leakage guard of :mod:`truepass.prompts.retrieval`, chosen by ``--context``: mixed
(correct and overfitting alternating, the default), correct-only or overfitting-only.

Scores (see :mod:`truepass.families.labels`): ``gold_overfitting`` (1/0),
``predicted_overfitting`` (1/0, -1 when no label could be read) and ``right`` (1/0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from truepass.families.base import AnswerKey
from truepass.families.labels import LabelFamily
from truepass.families.patch_correctness.schema import LABELS, PatchCorrectnessSample

if TYPE_CHECKING:
    from truepass.answers import Answer
    from truepass.solvers.base import SolveContext
    from truepass.solvers.capabilities import ModelAsker


class PatchCorrectnessFamily(LabelFamily):
    """Label answers (``correct`` | ``overfitting``) judged against the sample's label."""

    name = "patch-correctness"
    sample_type = PatchCorrectnessSample
    labels = LABELS
    aliases: ClassVar[Mapping[str, str]] = {"overfit": "overfitting", "overfitted": "overfitting"}
    gold_source = "the hidden tests say"
    prompt_variants = ("code-only",)
    context_types = ("mixed", "correct-only", "overfitting-only")

    def gold(self, sample: Any) -> str:
        return str(sample.label)

    def reference_rationale(self, sample: Any) -> str:
        why = "the reference fix" if sample.provenance == "reference" else "the hidden tests"
        return f"as {why} say"

    def answer_key(self, sample: Any) -> AnswerKey:
        """The label itself is one of two words every prompt names, so what would give it away
        is the sample's evidence: its id (``SUITE/SAMPLE/reference`` names a reference fix,
        always correct), the solvers that made the patch (``replay:overfit.jsonl``) and the
        fake-fix flags that labelled it overfitting; each as a whole word, plain words
        (``reference``, ``oracle``) aside, unless the buggy files or the diff hold it."""
        solvers = {sample.solver, *map(str, sample.meta.get("solvers") or [])}
        flags = map(str, sample.meta.get("flags") or [])
        names = [(sample.id, "its id")]
        names += [(s, "a solver that made it") for s in sorted(solvers)]
        names += [(f, "a fake-fix flag it carries") for f in flags]
        return AnswerKey.distinctive(
            names=[(n, where) for n, where in names if not n.isalpha()],
            shown=[*sample.buggy.values(), sample.diff],
        )

    def ask_model(
        self, solver: ModelAsker, sample: Any, attempt: int, ctx: SolveContext
    ) -> Answer | None:
        from truepass.families.patch_correctness.model import ask_for_label

        return ask_for_label(self, solver, sample, attempt, ctx)


FAMILY = PatchCorrectnessFamily
