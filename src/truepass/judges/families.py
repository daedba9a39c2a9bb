"""One interface over the task families, so the runner never asks which family it carries.

A family gives: the check of a pristine sample (cached per suite version in the store), the judge
of one attempt (the fields of its :class:`~truepass.records.AttemptRecord`), and the run-scoped
resources its judge needs (the codegen family's warm sandbox pool), opened and closed by the run.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from truepass.judges.verdicts import JudgeConfig
from truepass.patches.apply import Answer

if TYPE_CHECKING:  # the repair judge (pytest runs, fake-fix detectors) loads when used
    from truepass.judges.repair import SampleCheck


class Family(Protocol):
    name: str
    local_width: int | None  # the local executor's own threads (None: judge in the caller's)

    def check(self, sample: Any, config: JudgeConfig) -> BaseModel: ...

    def load_check(self, data: dict[str, Any]) -> BaseModel: ...

    def judge(
        self, sample: Any, answer: Answer | None, check: Any, config: JudgeConfig
    ) -> dict[str, Any]: ...

    def close(self) -> None: ...


class RepairFamily:
    """Patches judged by sandboxed test runs (judges/repair.py)."""

    name = "repair"
    local_width = None  # each judgement is a long sandboxed test run: the --jobs threads do it

    def check(self, sample: Any, config: JudgeConfig) -> SampleCheck:
        from truepass.judges.repair import check_sample

        return check_sample(sample, config)

    def load_check(self, data: dict[str, Any]) -> SampleCheck:
        from truepass.judges.repair import SampleCheck

        return SampleCheck.model_validate(data)

    def judge(
        self, sample: Any, answer: Answer | None, check: Any, config: JudgeConfig
    ) -> dict[str, Any]:
        from truepass.judges.repair import judge

        j = judge(sample, answer, check, config)
        return {
            "verdict": j.verdict.value,
            "flags": j.flags,
            "flag_details": j.flag_details,
            "regressions": j.regressions,
            "quality": j.quality,
            "localisation": j.localisation,
            "named_cause": j.named_cause,
            "visible": j.visible,
            "hidden": j.hidden,
            "patch": j.patch,
            "changed_files": j.changed_files,
            "details": j.details.strip(),
            "test_output": j.test_output,
            "sandbox_tier": j.tier or check.tier,
            "infra_retries": j.infra_retries,
            "duration_s": j.duration_s,
        }

    def close(self) -> None:
        return None


class CodegenFamily:
    """Functions judged case by case in a warm sandbox pool (judges/codegen.py)."""

    name = "codegen"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.local_width = 2 * workers  # checks in flight: one running and one waiting per worker
        self._pool: Any = None
        self._lock = threading.Lock()

    def pool(self, config: JudgeConfig) -> Any:
        with self._lock:
            return self._open(config)

    def _open(self, config: JudgeConfig) -> Any:
        if self._pool is None:
            from truepass.sandbox.pool import ExecLimits, ExecPool

            limits = ExecLimits(memory_mb=config.limits.memory_mb)
            self._pool = ExecPool(workers=self.workers, limits=limits)
        return self._pool

    def check(self, sample: Any, config: JudgeConfig) -> BaseModel:
        from truepass.judges.codegen import check_codegen

        return check_codegen(sample, self.pool(config))

    def load_check(self, data: dict[str, Any]) -> BaseModel:
        from truepass.judges.codegen import CodegenCheck

        return CodegenCheck.model_validate(data)

    def judge(
        self, sample: Any, answer: Answer | None, check: Any, config: JudgeConfig
    ) -> dict[str, Any]:
        from truepass.judges.codegen import judge_codegen

        j = judge_codegen(sample, answer, check, self.pool(config))
        return {
            "verdict": j.verdict.value,
            "visible": j.visible,
            "hidden": j.hidden,
            "patch": j.code,
            "changed_files": ["solution.py"] if j.code else [],
            "details": j.details,
            "failed_case": j.failed_case,
            "sandbox_tier": j.tier or check.tier,
            "infra_retries": j.infra_retries,
            "duration_s": j.duration_s,
        }

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None


def family_for(name: str, *, workers: int = 2) -> RepairFamily | CodegenFamily:
    """The family judging a suite of this family name."""
    if name == "codegen":
        return CodegenFamily(workers)
    return RepairFamily()
