"""Where the sandboxed work of a run happens: in this process (the default) or on a Dask cluster.

The runner solves in its own process (model calls, the response cache) and hands the sandboxed
work, sample checks and attempt judging, to an executor as :class:`Job` values: plain, picklable
data (the sample, the answer, the check, the judge configuration and the family's name), so that
another process or machine can rebuild the family and run the same sandbox. Every result comes
back to the runner, the only writer of the store.

Specs (``truepass run --executor``): ``local`` (a thread of this process judges right after it
solved, as it always did), ``dask://HOST[:PORT]`` (the workers of a running Dask scheduler,
port 8786 by default) and ``dask-local:N`` (a Dask cluster of N worker processes on this
machine, started for the run and closed after it). See docs/scale-out.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from truepass.errors import InputError
from truepass.judges.families import Family
from truepass.judges.verdicts import JudgeConfig
from truepass.patches.apply import Answer

EXECUTOR_HELP = (
    "Where attempts are judged: local (this machine, --jobs threads), dask://HOST[:PORT] (the "
    "workers of a Dask scheduler, docs/scale-out.md; dask+tls://HOST[:PORT] with mutual TLS) "
    "or dask-local:N (N local worker processes)."
)
DASK_PORT = 8786
_DASK = re.compile(
    r"^dask(?P<tls>\+tls)?://(?P<host>\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+)(?::(?P<port>\d{1,5}))?/?$"
)
_DASK_LOCAL = re.compile(r"^dask-local:(?P<n>\d{1,4})$")


@dataclass(frozen=True)
class Job:
    """One piece of sandboxed work; plain data that pickles, so any worker can run it."""

    kind: Literal["check", "judge"]
    family: str
    sample: Any
    config: JudgeConfig
    answer: Answer | None = None
    check: Any = None

    def run(self, family: Family) -> Any:
        """The check (a family check model) or the judged record fields (a dict)."""
        if self.kind == "check":
            return family.check(self.sample, self.config)
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


class LocalExecutor:
    """Judges on this machine with the run's own family (its warm pools included).

    By default in the calling thread: the runner calls :meth:`submit` from its ``--jobs``
    threads, right after solving. A family whose checks are short hand-offs to warm workers
    (codegen: ``family.local_width``, twice its pool's workers) gets that many threads of its
    own instead, so a worker always has the next check waiting while this process decodes and
    judges the last one, and the solving threads go on solving.
    """

    spec = "local"

    def __init__(self, family: Family) -> None:
        self.family = family
        width = family.local_width
        self._threads = ThreadPoolExecutor(width, "truepass-judge") if width else None

    def submit(self, job: Job, key: str, on_done: OnDone) -> None:
        if self._threads is None:
            self._run(job, on_done)
        else:
            self._threads.submit(self._run, job, on_done)

    def _run(self, job: Job, on_done: OnDone) -> None:
        done: Future[Any] = Future()
        try:
            done.set_result(job.run(self.family))
        except Exception as exc:  # handed to the runner, which decides what it means
            done.set_exception(exc)
        on_done(done)

    def describe(self) -> dict[str, object]:
        return {"spec": self.spec}

    def close(self) -> None:
        if self._threads is not None:
            self._threads.shutdown(wait=True, cancel_futures=True)


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


def parse_executor(spec: str) -> ExecutorSpec:
    """Parse ``local``, ``dask://HOST[:PORT]``, ``dask+tls://HOST[:PORT]`` or ``dask-local:N``;
    :class:`InputError` else."""
    text = spec.strip()
    if text == "local":
        return ExecutorSpec("local")
    if m := _DASK.match(text):
        port = int(m["port"] or DASK_PORT)
        if not 0 < port < 65536:
            raise InputError(f"port {port} is out of range in '{spec}'", field="--executor")
        scheme = "tls" if m["tls"] else "tcp"
        return ExecutorSpec("dask", address=f"{scheme}://{m['host']}:{port}")
    if m := _DASK_LOCAL.match(text):
        if int(m["n"]) < 1:
            raise InputError("dask-local needs at least 1 worker process", field="--executor")
        return ExecutorSpec("dask-local", workers=int(m["n"]))
    raise InputError(
        f"'{spec}' is not an executor: use local, dask://HOST:PORT (a running Dask scheduler, "
        "e.g. dask://10.0.0.5:8786; dask+tls://HOST:PORT with mutual TLS) or dask-local:N (N "
        "worker processes on this machine)",
        field="--executor",
    )


def open_executor(spec: str | ExecutorSpec, family: Family, run_id: str) -> Executor:
    """The executor for ``spec``, ready to take jobs; close it after the run.

    ``family`` is the run's own (the local executor judges with it); ``run_id`` is unique per
    invocation and goes into the keys of distributed jobs.
    """
    parsed = spec if isinstance(spec, ExecutorSpec) else parse_executor(spec)
    if parsed.kind == "local":
        return LocalExecutor(family)
    from truepass.sandbox.distributed import DaskExecutor

    return DaskExecutor(parsed, run_id)
