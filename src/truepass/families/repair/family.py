"""The repair family: a defect, a patch, and sandboxed test runs (docs/suite-format.md)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from truepass.answers import Answer
from truepass.families.base import AnswerKey, Family
from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.evidence import RepairEvidence
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.workflow.judging import candidate_metrics, judge_candidates
from truepass.judged import JudgeConfig, Judged, SampleCheck, SampleHealth
from truepass.vocabulary import PASSES_VISIBLE, AnswerKind, CheckStatus, Verdict

if TYPE_CHECKING:
    from truepass.agentic.task import AgentTask
    from truepass.families.formats import SuiteFormat
    from truepass.patches.apply import AppliedPatch
    from truepass.records import AttemptRecord
    from truepass.solvers.base import SolveContext
    from truepass.solvers.capabilities import ModelAsker

MIN_LINE_CHARS = 12
"""A line of the answer key shorter than this may occur in a prompt by chance."""


def _added_lines(diff: str | None) -> Iterator[str]:
    for ln in (diff or "").splitlines():
        if ln.startswith("+") and not ln.startswith("+++"):
            yield ln[1:]


class RepairFamily(Family):
    """Patches judged by sandboxed test runs, visible then hidden (``judge.py``), with fake-fix
    flags (``fakefix/``), regressions, quality deltas and fault localisation."""

    name = "repair"
    sample_type = RepairSample
    evidence_type = RepairEvidence
    check_type = RepairCheck
    answer_kinds = frozenset({AnswerKind.PATCH, AnswerKind.FILES})
    headline_metrics = (
        "similarity",
        "exact_match",
        "composite[prototype]",
        "composite[production-review]",
        "composite[custom]",
    )
    """Shown beside the verdict table at a run's end (``composite[custom]`` with
    ``--family-option weights=...``)."""
    prompt_variants = ("code-only", "description", "feedback", "root-cause")

    @classmethod
    def suite_formats(cls) -> tuple[SuiteFormat, ...]:
        from truepass.families.repair.adapters import FORMATS

        return FORMATS

    @classmethod
    def transforms(cls) -> dict[str, Callable[[Any], Any]]:
        from truepass.families.repair.transforms import transform_suite

        return {"obfuscate": lambda suite: transform_suite(suite, "obfuscate")}

    _weights: tuple[float, float, float, float] | None = None
    """``--family-option weights=W1,W2,W3,W4``: the pyramid's ``custom`` profile"""

    def configure(self, options: Mapping[str, str]) -> None:
        """``weights``: four non-negative weights of the pyramid's layers 1 to 4, separated by
        commas (scaled to sum to 1): a ``custom`` composite beside the named profiles."""
        from truepass.errors import InputError

        for key, value in options.items():
            if key != "weights":
                raise InputError(f"the repair family has no option '{key}' (it has: weights)",
                                 field="--family-option")  # fmt: skip
            try:
                weights = [float(x) for x in value.split(",")]
            except ValueError:
                weights = []
            if len(weights) != 4 or min(weights) < 0 or sum(weights) <= 0:
                why = "four non-negative numbers W1,W2,W3,W4 (layers 1 to 4), not all 0"
                raise InputError(f"weights={value}: {why}", field="--family-option")
            total = sum(weights)
            a, b, c, d = (round(w / total, 4) for w in weights)
            self._weights = (a, b, c, d)

    def options(self) -> dict[str, str]:
        """The custom weights when given (none by default: only the named profiles)."""
        if self._weights is None:
            return {}
        return {"weights": ",".join(f"{w:g}" for w in self._weights)}

    def check(self, sample: Any, config: JudgeConfig) -> SampleCheck:
        from truepass.families.repair.judge import check_sample

        return check_sample(sample, config)

    def judge(
        self, sample: Any, answer: Answer | None, check: SampleCheck, config: JudgeConfig
    ) -> Judged:
        from truepass.families.repair.judge import judge

        judged = judge(sample, answer, check, config)  # type: ignore[arg-type]
        judged.sandbox_tier = judged.sandbox_tier or check.tier
        judge_candidates(self, sample, answer, check, config, judged)
        return judged

    def metrics(self, records: list[AttemptRecord]) -> dict[str, float]:
        """The similarity to the reference fix and the exact-match rate, with intervals
        (:func:`~truepass.families.repair.similarity.reference_metrics`), seed 001's patch types
        (``patch_type[TYPE]``, ``correct_rate[TYPE]``, ``patch_types_n``:
        :func:`~truepass.families.repair.patchtypes.patch_type_metrics`), and the candidate
        metrics of solvers that choose among candidates (``workflow:MODEL``:
        ``candidates_selection_accuracy``, ...; none for other solvers), the fix strategies
        (:func:`~truepass.families.repair.strategy.strategy_metrics`), style consistency and
        seed 002's pyramid with its composite scores
        (:func:`~truepass.families.repair.pyramid.pyramid_metrics`)."""
        from truepass.families.repair.patchtypes import patch_type_metrics
        from truepass.families.repair.pyramid import pyramid_metrics
        from truepass.families.repair.similarity import reference_metrics
        from truepass.families.repair.strategy import strategy_metrics
        from truepass.families.repair.style import style_metrics

        typed = [(r, RepairEvidence.of(r).patch_type) for r in records]
        strategies = [(r, RepairEvidence.of(r).fix_strategy) for r in records]
        return (
            reference_metrics(records)
            | patch_type_metrics(typed)
            | strategy_metrics(strategies)
            | style_metrics(records)
            | pyramid_metrics(records, {"custom": self._weights} if self._weights else {})
            | candidate_metrics(records)
        )

    def code_files(self, sample: Any) -> dict[str, str]:
        return dict(sample.files)

    def apply_patch(self, sample: Any, answer: Answer) -> AppliedPatch:
        from truepass.families.repair.patching import apply_to_sample

        return apply_to_sample(sample, answer)

    def reference_answer(self, sample: Any) -> Answer:
        return Answer(diff=sample.fix, patch_id="reference-fix")

    def null_answer(self, sample: Any) -> Answer | None:
        return Answer(diff="", patch_id="noop")

    def null_problem(self, sample: Any, null: Judged) -> str | None:
        """The null answer must not pass the visible tests; where they are regression tests
        (``tests.visible_role``: the buggy code passes them), it must not pass the hidden ones."""
        if sample.tests.visible_role != "regression":
            return super().null_problem(sample, null)
        if null.verdict is not Verdict.CORRECT:
            return None
        return "the null answer was judged correct after failing the hidden tests in the check"

    def more_health(
        self,
        sample: Any,
        check: SampleCheck,
        config: JudgeConfig,
        reference: Judged,
        health: SampleHealth,
    ) -> None:
        """The tests the buggy code failed in the check, when it now passes (flaky); detector
        false alarms on the reference fix (warnings); the known_overfit patch must be overfit."""
        if health.noop in PASSES_VISIBLE and sample.tests.visible_role != "regression":
            failing = getattr(check, "buggy_failing", [])
            health.flaky_tests = sorted(set(health.flaky_tests) | set(failing))
        for flag in reference.flag_details:
            health.warnings.append(
                f"the reference fix is flagged {flag.name} ({flag.file}:{flag.line}: "
                f"{flag.explanation}); the same pattern in a candidate would be flagged too"
            )
        if sample.known_overfit:
            over = self.judge(sample, Answer(diff=sample.known_overfit), check, config)
            health.known_overfit = over.verdict.value
            if over.verdict is not Verdict.OVERFIT:
                health.flag(
                    CheckStatus.INFRA_ERROR
                    if over.verdict is Verdict.INFRA_ERROR
                    else CheckStatus.OVERFIT_NOT_OVERFIT,
                    f"known_overfit judged {over.verdict.value}, not overfit",
                )

    def answer_key(self, sample: Any) -> AnswerKey:
        """The lines of the hidden tests and the lines ``fix`` and ``known_overfit`` add (12+
        characters, comments aside), and the names of the hidden test functions; each only when
        the buggy files, the visible tests and the description do not already hold it."""
        lines = [
            (ln, f"hidden test {path}")
            for path, text in sample.tests.hidden.items()
            for ln in text.splitlines()
        ]
        lines += [(ln, "reference fix") for ln in _added_lines(sample.fix)]
        lines += [(ln, "known overfit patch") for ln in _added_lines(sample.known_overfit)]
        names = [
            (name, "hidden test name")
            for text in sample.tests.hidden.values()
            for name in re.findall(r"def (test\w+)", text)
        ]
        return AnswerKey.distinctive(
            [(ln, where) for ln, where in lines if not ln.strip().startswith("#")],
            min_chars=MIN_LINE_CHARS,
            names=names,
            shown=[*sample.files.values(), *sample.tests.visible.values(), sample.description],
        )

    def ask_model(
        self, solver: ModelAsker, sample: Any, attempt: int, ctx: SolveContext
    ) -> Answer | None:
        from truepass.families.repair.model import ask_for_patch

        return ask_for_patch(solver, sample, attempt, ctx)

    def agent_task(self, sample: Any) -> AgentTask | None:
        """The buggy files and the visible tests; ``run_tests`` runs the visible tests; the
        answer is the workspace's diff (``agent.py``)."""
        from truepass.families.repair.agent import repair_agent_task

        return repair_agent_task(sample)


FAMILY = RepairFamily
