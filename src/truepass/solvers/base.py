"""What every solver is: something that turns a sample into an answer, for the families it
declares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from truepass.answers import Answer
from truepass.judged import JudgeConfig, SampleCheck

if TYPE_CHECKING:
    from truepass.families.base import Family


@dataclass(frozen=True)
class SolveContext:
    """What a solver may use besides the sample: the run's family (its reference and null
    answers, how it asks a model), the judge settings (for sandboxed test runs of its own, e.g.
    a generate-and-validate tool), the sample's pristine check, and the suite's samples (where
    a family draws demonstrations from, through its leakage guard)."""

    family: Family
    config: JudgeConfig
    check: SampleCheck
    pool: Sequence[Any] = ()


class Solver(Protocol):
    """A solver. ``name`` is its spec as given on the command line and goes into every record.

    ``families`` names the families it serves (None: any family, through the family's own
    hooks); :meth:`serves` may refuse a family for a finer reason (a prompt variant that does
    not apply). The runner refuses a run whose solvers do not serve its suite's family.
    """

    name: str
    families: frozenset[str] | None

    def serves(self, family: Family) -> str | None:
        """Why this solver cannot work on ``family``'s samples, or None when it can."""
        ...

    def prepare(self) -> None:
        """Called once before the run solves anything: fail here, with one clear error, when
        nothing can work (a model endpoint that cannot be reached or refuses the key)."""
        ...

    def attempts(self, sample: Any) -> int:
        """How many attempts this solver makes on ``sample`` (0 skips it)."""
        ...

    def solve(self, sample: Any, attempt: int, ctx: SolveContext) -> Answer | None:
        """Answer for one attempt; None when nothing usable came out (judged ``no-patch``)."""
        ...


class SolverBase:
    """Defaults of the :class:`Solver` protocol: any family, one attempt, nothing to prepare."""

    name: str
    families: frozenset[str] | None = None

    def serves(self, family: Family) -> str | None:
        return None

    def prepare(self) -> None:
        return None

    def attempts(self, sample: Any) -> int:
        return 1


def refusal(solver: Solver, family: Family) -> str | None:
    """Why ``solver`` cannot work on ``family`` (its declared families, then its own test)."""
    if solver.families is not None and family.name not in solver.families:
        return (
            f"solver '{solver.name}' cannot work on {family.name} samples "
            f"(only {', '.join(sorted(solver.families))})"
        )
    reason = solver.serves(family)
    return f"solver '{solver.name}': {reason}" if reason else None
