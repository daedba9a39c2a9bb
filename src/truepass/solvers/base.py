"""What every solver is: something that turns a sample into an answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from truepass.judges.verdicts import JudgeConfig
from truepass.patches.apply import Answer
from truepass.suites.schema import RepairSample

if TYPE_CHECKING:
    from truepass.judges.repair import SampleCheck


@dataclass(frozen=True)
class SolveContext:
    """What a solver may use besides the sample: the judge settings (for sandboxed test runs
    of its own, e.g. a generate-and-validate tool) and the sample's pristine check."""

    config: JudgeConfig
    check: SampleCheck


class Solver(Protocol):
    """A solver. ``name`` is its spec as given on the command line and goes into every record."""

    name: str

    def attempts(self, sample: RepairSample) -> int:
        """How many attempts this solver makes on ``sample`` (0 skips it)."""
        ...

    def solve(self, sample: RepairSample, attempt: int, ctx: SolveContext) -> Answer | None:
        """Answer for one attempt; None when nothing usable came out (judged ``no-patch``)."""
        ...
