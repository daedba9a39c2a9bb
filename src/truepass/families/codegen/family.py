"""The codegen family: one function to write from its prompt (docs/codegen-format.md)."""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING, Any

from truepass.answers import Answer
from truepass.families.base import AnswerKey, Family
from truepass.families.codegen.checks import CodegenCheck
from truepass.families.codegen.evidence import CodegenEvidence
from truepass.families.codegen.schema import SOLUTION_FILE, CodegenSample
from truepass.judged import JudgeConfig, Judged, SampleCheck
from truepass.vocabulary import AnswerKind

if TYPE_CHECKING:
    from truepass.families.formats import SuiteFormat
    from truepass.sandbox.pool import ExecPool
    from truepass.sandbox.verdict import Case
    from truepass.solvers.base import SolveContext
    from truepass.solvers.capabilities import ModelAsker


class CodegenFamily(Family):
    """Functions judged case by case in a warm sandbox pool (``judge.py``), opened on first
    use and closed with the run."""

    name = "codegen"
    sample_type = CodegenSample
    evidence_type = CodegenEvidence
    check_type = CodegenCheck
    answer_kinds = frozenset({AnswerKind.FILES})
    prompt_variants = ("code-only",)
    context_types = ("bare", "explained")

    @classmethod
    def suite_formats(cls) -> tuple[SuiteFormat, ...]:
        from truepass.families.codegen.adapters import FORMATS

        return FORMATS

    def __init__(self, workers: int = 2) -> None:
        super().__init__(workers)
        self._pool: ExecPool | None = None
        self._lock = threading.Lock()
        self._cases: dict[str, tuple[SampleCheck, list[Case]]] = {}
        """The run's cases per sample id, with the check they were built from."""

    @property
    def local_width(self) -> int | None:
        return 2 * self.workers  # checks in flight: one running and one waiting per worker

    def pool(self, config: JudgeConfig) -> ExecPool:
        """The run's warm pool (opened on first use)."""
        with self._lock:
            if self._pool is None:
                from truepass.sandbox.pool import ExecLimits, ExecPool

                limits = ExecLimits(memory_mb=config.limits.memory_mb)
                self._pool = ExecPool(workers=self.workers, limits=limits)
            return self._pool

    def warm(self, config: JudgeConfig) -> None:
        with contextlib.suppress(Exception):  # the first check starts it and says why not
            self.pool(config)

    def check(self, sample: Any, config: JudgeConfig) -> SampleCheck:
        from truepass.families.codegen.judge import check_codegen

        return check_codegen(sample, self.pool(config))

    def judge(
        self, sample: Any, answer: Answer | None, check: SampleCheck, config: JudgeConfig
    ) -> Judged:
        from truepass.families.codegen.judge import judge_codegen

        cases = self._cases_of(sample, check)
        judged = judge_codegen(sample, answer, check, self.pool(config), cases)  # type: ignore[arg-type]
        judged.sandbox_tier = judged.sandbox_tier or check.tier
        return judged

    def _cases_of(self, sample: Any, check: SampleCheck) -> list[Case]:
        """``sample``'s cases, built at its first attempt in this run and kept until
        :meth:`close` (again when its check is another)."""
        with self._lock:
            kept = self._cases.get(sample.id)
        if kept is not None and kept[0] is check:
            return kept[1]
        from truepass.families.codegen.judge import build_cases

        cases = build_cases(sample, check)  # type: ignore[arg-type]
        with self._lock:
            self._cases[sample.id] = (check, cases)
        return cases

    def close(self) -> None:
        with self._lock:
            self._cases.clear()
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    def reference_answer(self, sample: Any) -> Answer:
        return Answer(files={SOLUTION_FILE: sample.reference_code}, patch_id="canonical")

    def null_answer(self, sample: Any) -> Answer | None:
        return Answer(files={SOLUTION_FILE: sample.prompt}, patch_id="noop")  # no body

    def answer_key(self, sample: Any) -> AnswerKey:
        """The canonical solution's body (when long enough to be telling: a one-line
        ``return a + b`` may occur by chance)."""
        return AnswerKey.distinctive(
            [(sample.canonical_solution, "canonical solution")], min_chars=41
        )

    def ask_model(
        self, solver: ModelAsker, sample: Any, attempt: int, ctx: SolveContext
    ) -> Answer | None:
        from truepass.families.codegen.model import ask_for_code

        return ask_for_code(self, solver, sample, attempt, ctx)


FAMILY = CodegenFamily
