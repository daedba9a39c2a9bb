"""Reference solvers: ``oracle`` applies the suite's fix (codegen: submits the canonical
solution), ``noop`` changes nothing (codegen: submits the prompt alone)."""

from __future__ import annotations

from truepass.patches.apply import Answer
from truepass.solvers.base import SolveContext
from truepass.suites.codegen import SOLUTION_FILE, CodegenSample
from truepass.suites.schema import RepairSample


class OracleSolver:
    """Applies the reference fix: the upper bound, and a check of the suite itself."""

    name = "oracle"

    def attempts(self, sample: RepairSample) -> int:
        return 1

    def solve(self, sample: RepairSample, attempt: int, ctx: SolveContext) -> Answer | None:
        if isinstance(sample, CodegenSample):
            return Answer(files={SOLUTION_FILE: sample.reference_code}, patch_id="canonical")
        return Answer(diff=sample.fix, patch_id="reference-fix")


class NoopSolver:
    """Submits the buggy code unchanged: any solver must beat it, and it must never pass."""

    name = "noop"

    def attempts(self, sample: RepairSample) -> int:
        return 1

    def solve(self, sample: RepairSample, attempt: int, ctx: SolveContext) -> Answer | None:
        if isinstance(sample, CodegenSample):  # the prompt alone: a body-less function
            return Answer(files={SOLUTION_FILE: sample.prompt}, patch_id="noop")
        return Answer(diff="", patch_id="noop")
