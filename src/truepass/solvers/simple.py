"""Reference solvers: ``oracle`` applies the suite's fix, ``noop`` changes nothing."""

from __future__ import annotations

from truepass.patches.apply import Answer
from truepass.solvers.base import SolveContext
from truepass.suites.schema import RepairSample


class OracleSolver:
    """Applies the reference fix: the upper bound, and a check of the suite itself."""

    name = "oracle"

    def attempts(self, sample: RepairSample) -> int:
        return 1

    def solve(self, sample: RepairSample, attempt: int, ctx: SolveContext) -> Answer | None:
        return Answer(diff=sample.fix, patch_id="reference-fix")


class NoopSolver:
    """Submits the buggy code unchanged: any solver must beat it, and it must never pass."""

    name = "noop"

    def attempts(self, sample: RepairSample) -> int:
        return 1

    def solve(self, sample: RepairSample, attempt: int, ctx: SolveContext) -> Answer | None:
        return Answer(diff="", patch_id="noop")
