"""What every executor shares: the :class:`Job` it runs, the parsed ``--executor`` spec, and the
:class:`Executor` protocol (see :mod:`truepass.executors`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from truepass.answers import Answer
from truepass.families.base import Family
from truepass.judged import JudgeConfig, Judged, SampleCheck, SampleHealth


@dataclass(frozen=True)
class Job:
    """One piece of sandboxed work; plain data that pickles, so any worker can run it.

    ``check``: the sample's check; ``judge``: one attempt; ``health``: ``check-suite``'s
    judging of the reference and null answers.
    """

    kind: Literal["check", "judge", "health"]
    family: type[Family]
    sample: Any
    config: JudgeConfig
    answer: Answer | None = None
    check: SampleCheck | None = None

    def run(self, family: Family) -> SampleCheck | Judged | SampleHealth:
        """Run on ``family`` (an instance of :attr:`family`)."""
        if self.kind == "check":
            return family.check(self.sample, self.config)
        assert self.check is not None
        if self.kind == "health":
            return family.health(self.sample, self.check, self.config)
        return family.judge(self.sample, self.answer, self.check, self.config)


class Outcome(Protocol):
    """A finished job: ``result()`` returns its value or raises its error."""

    def result(self) -> Any: ...


OnDone = Callable[[Outcome], None]


class Executor(Protocol):
    """Runs jobs somewhere and reports each one, once, to ``on_done`` (from any thread)."""

    spec: str

    def submit(self, job: Job, key: str, on_done: OnDone) -> None:
        """Start ``job``; ``key`` names it uniquely within the run (solver, sample, attempt)."""
        ...

    def describe(self) -> dict[str, object]:
        """What the manifest records about where the jobs ran."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class ExecutorSpec:
    """A parsed ``--executor`` value."""

    kind: Literal["local", "dask", "dask-local"]
    address: str | None = None  # tcp://HOST:PORT or tls://HOST:PORT of a Dask scheduler
    workers: int = 0  # worker processes of a dask-local cluster

    @property
    def text(self) -> str:
        if self.kind == "dask":
            scheme, _, rest = (self.address or "").partition("://")
            return ("dask+tls://" if scheme == "tls" else "dask://") + rest
        return f"dask-local:{self.workers}" if self.kind == "dask-local" else "local"
