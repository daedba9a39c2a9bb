"""A fast execution engine for function-level checks: a pool of warm, sandboxed workers.

Each worker is one long-lived Python process started inside the sandbox (the same bubblewrap
command line as :func:`truepass.sandbox.run_sandboxed`) that has already imported the standard
library. For each check it forks a child (about a millisecond, against a process start of tens
of milliseconds) that confines itself (rlimits, Landlock, seccomp: see
:mod:`truepass.sandbox.guest.confine`), loads the candidate's code, calls the entry point on every
case and sends back each return value as a tagged plain value. The worker kills a child whose
case overruns its deadline. The verdict is computed here, in the trusted parent, by a
type-checked comparison with expected values that never enter the sandbox
(:mod:`truepass.sandbox.verdict`)::

    with ExecPool(workers=2) as pool:
        result = pool.check(code, "add", [Case([1, 2], 3), Case([2, 2], 4)])
        result.passed, result.status, result.cases[0].got_repr

A worker that dies, hangs or answers something malformed is replaced and the check retried
once on the fresh worker; a second failure raises :class:`PoolError`.
"""

from __future__ import annotations

import concurrent.futures
import json
import math
import os
import queue
import statistics
import threading
import time
import weakref
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from truepass.errors import SandboxError
from truepass.sandbox import casecanaries
from truepass.sandbox.verdict import (
    Case,
    CaseResult,
    CheckResult,
    Decoded,
    HarnessFailed,
    decode_response,
    judge,
    wall_limit,
)
from truepass.sandbox.workerproc import Response, WorkerConfig, WorkerDied, WorkerProcess

__all__ = [
    "DEFAULT_FACTOR", "DEFAULT_FLOOR_S", "Calibration", "CalibrationError", "Case", "CaseResult",
    "CheckResult", "ExecLimits", "ExecPool", "Job", "PoolError", "calibrate", "scaled_timeouts",
    "wall_limit",
]  # fmt: skip

DEFAULT_FACTOR = 4.0
DEFAULT_FLOOR_S = 0.25  # seconds of CPU time, see scaled_timeouts


class PoolError(SandboxError):
    """A check could not be carried out (the worker failed twice): an infra error."""


@dataclass(frozen=True)
class ExecLimits:
    """Limits of every check's child (and of the worker that forks it)."""

    memory_mb: int = 1024  # address space of the child (RLIMIT_AS)
    file_size_mb: int = 1  # largest file the child may write (only in its scratch /tmp)
    open_files: int = 64  # RLIMIT_NOFILE of the child
    max_threads: int = 32  # tasks of the whole worker sandbox (pids cgroup, where available)
    disk_mb: int = 64  # the worker's tmpfs (/tmp, /dev/shm, /workspace)
    output_bytes: int = 64 << 10  # captured stdout+stderr per check, the rest is dropped
    result_bytes: int = 16 << 20  # serialised return values per check
    load_timeout_s: float = 5.0  # wall clock to load the code (before the first case)
    landlock: bool = True  # use Landlock where the kernel has it
    seccomp: bool = True  # use a seccomp filter where libseccomp loads


@dataclass(frozen=True)
class Job:
    """One check for :meth:`ExecPool.check_many` (the arguments of :meth:`ExecPool.check`)."""

    code: str
    entry_point: str
    cases: list[Case]
    stop_on_first_failure: bool = True
    atol: float = 0.0
    tuple_is_list: bool = False
    int_is_float: bool = False
    canaries: bool = False


class _Slot:
    """One worker place of the pool; its process is replaced when it fails."""

    def __init__(self, process: WorkerProcess | None) -> None:
        self.process = process


class ExecPool:
    """Warm sandboxed workers running function-level checks. A context manager; thread-safe
    (each worker runs one check at a time; :meth:`check` waits for a free one)."""

    def __init__(self, workers: int | None = None, *, limits: ExecLimits | None = None) -> None:
        self.limits = limits or ExecLimits()
        count = workers if workers is not None else (os.cpu_count() or 1)
        if count < 1:
            raise ValueError("workers must be at least 1")
        lim = self.limits
        self._config = WorkerConfig(
            memory_mb=lim.memory_mb, disk_mb=lim.disk_mb, max_threads=lim.max_threads,
            child_limits={"memory_mb": lim.memory_mb, "file_size_mb": lim.file_size_mb,
                          "open_files": lim.open_files},
            result_bytes=lim.result_bytes, output_bytes=lim.output_bytes,
            landlock=lim.landlock, seccomp=lim.seccomp,
        )  # fmt: skip
        self.restarts = 0  # workers replaced after dying, hanging or misbehaving
        self._distrusted: weakref.WeakSet[WorkerProcess] = weakref.WeakSet()
        self._slots: list[_Slot] = []
        self._idle: queue.SimpleQueue[_Slot] = queue.SimpleQueue()
        self._lock = threading.Lock()
        # Every worker is started from this one thread, alive as long as the pool (see
        # WorkerProcess: a worker dies with the thread that started it).
        self._spawner = concurrent.futures.ThreadPoolExecutor(1, "truepass-pool-spawner")
        with concurrent.futures.ThreadPoolExecutor(count) as starter:
            futures = [starter.submit(self._new_worker) for _ in range(count)]
        failures = [f.exception() for f in futures if f.exception() is not None]
        for future in futures:
            if future.exception() is None:
                self._slots.append(_Slot(future.result()))
        if failures:
            self.close()
            raise failures[0]  # type: ignore[misc]
        for slot in self._slots:
            self._idle.put(slot)
        self.sandbox = self._slots[0].process.description  # type: ignore[union-attr]
        self.notes: list[str] = list(self._slots[0].process.hello.get("notes", []))  # type: ignore[union-attr]

    def __enter__(self) -> ExecPool:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @property
    def size(self) -> int:
        """Number of workers."""
        return len(self._slots)

    def close(self) -> None:
        """Stop every worker (idempotent)."""
        with self._lock:
            slots, self._slots = self._slots, []
        live = [slot for slot in slots if slot.process is not None]
        for slot in live:  # every worker winds down at once, then each is waited for
            slot.process.request_exit()  # type: ignore[union-attr]
        for slot in live:
            slot.process.close()  # type: ignore[union-attr]
            slot.process = None
        self._spawner.shutdown(wait=True)

    def _new_worker(self) -> WorkerProcess:
        return WorkerProcess(self._config, lambda make: self._spawner.submit(make).result())

    def check(
        self,
        code: str,
        entry_point: str,
        cases: list[Case],
        *,
        stop_on_first_failure: bool = True,
        atol: float = 0.0,
        tuple_is_list: bool = False,
        int_is_float: bool = False,
        canaries: bool = False,
    ) -> CheckResult:
        """Run ``code``'s ``entry_point`` on every case in a fresh confined child and judge it.

        Args:
            code: the candidate's module source.
            entry_point: name of the function to call with each case's ``args``.
            cases: inputs, expected values (plain values) and per-case time limits.
            stop_on_first_failure: stop at the first case that does not pass (a wrong answer
                is only known here, so the child still computes the remaining cases; only an
                exception, a timeout or a crash stop it early). Otherwise every case is
                reported: after a timeout or crash a fresh child resumes at the next case.
            atol, tuple_is_list, int_is_float: how values compare, see
                :func:`truepass.sandbox.guest.plainvalues.plain_equal` (types are checked; lists and
                tuples differ by default, as with Python's ``==``).
            canaries: mix the harness's canary cases among ``cases``
                (:mod:`truepass.sandbox.casecanaries`); the result never shows them, and
                ``CheckResult.canary_lies`` says which reported the wrong outcome.

        Raises:
            TypeError: an argument or expected value is not a plain value.
            PoolError: the sandbox failed twice (infra error).
        """
        job = Job(code, entry_point, cases, stop_on_first_failure, atol, tuple_is_list,
                  int_is_float, canaries)  # fmt: skip
        return self._run_job(job)

    def check_many(
        self, jobs: Iterable[Job], *, infra_errors: Literal["raise", "result"] = "raise"
    ) -> Iterator[CheckResult]:
        """Results of ``jobs`` in order, keeping every worker busy. With ``infra_errors=
        "result"`` a :class:`PoolError` becomes a result of status ``infra-error`` instead of
        ending the iteration."""
        width = max(1, len(self._slots))
        with concurrent.futures.ThreadPoolExecutor(width) as executor:
            pending: deque[concurrent.futures.Future[CheckResult]] = deque()
            try:
                for job in jobs:
                    pending.append(executor.submit(self._run_job, job, infra_errors))
                    if len(pending) >= 2 * width:
                        yield pending.popleft().result()
                while pending:
                    yield pending.popleft().result()
            finally:
                for future in pending:
                    future.cancel()

    def execute(
        self, code: str, entry_point: str, inputs: list[list[Any]], *, timeout_s: float
    ) -> Decoded:
        """Run every input without judging (all cases, each with ``timeout_s``): how loading
        went and each case's outcome (return value, exception, timeout) with its measured
        duration. Used to measure a canonical solution."""
        cases = [Case(list(args), None, timeout_s) for args in inputs]
        return self._run(Job(code, entry_point, cases, stop_on_first_failure=False))[0]

    def _run_job(self, job: Job, infra_errors: str = "raise") -> CheckResult:
        for case in job.cases:
            case.check_plain()
        compare = {"atol": job.atol, "tuple_is_list": job.tuple_is_list,
                   "int_is_float": job.int_is_float}  # fmt: skip
        plan = casecanaries.draw(len(job.cases)) if job.canaries else None
        try:
            decoded, duration, sandbox = self._run(job, plan)
        except PoolError as exc:
            if infra_errors != "result":
                raise
            return CheckResult(False, "infra-error", [], 0.0, error=str(exc))
        lies: list[str] = []
        if plan is not None:  # taken out before anything reads the outcomes
            decoded, lies = plan.take(decoded)
        return judge(
            job.cases, decoded, stop_on_first_failure=job.stop_on_first_failure, compare=compare,
            duration_s=duration, sandbox=sandbox, canaries=len(plan.canaries) if plan else 0,
            canary_lies=tuple(lies),
        )  # fmt: skip

    def _run(
        self, job: Job, plan: casecanaries.CanaryPlan | None = None
    ) -> tuple[Decoded, float, str]:
        """Send ``job`` to a free worker (and once more to a fresh one if that fails), with
        ``plan``'s canary cases woven in (the decoded response still holds them)."""
        cases = plan.weave(job.cases) if plan is not None else job.cases
        timeouts = [float(case.timeout_s) for case in cases]
        walls = [float(case.wall_limit_s) for case in cases]
        load = self.limits.load_timeout_s
        header = {
            "timeouts": timeouts, "walls": walls, "load_timeout": load,
            "stop": job.stop_on_first_failure, "cpu_s": math.ceil(load + sum(timeouts)) + 1,
        }  # fmt: skip
        # the request's JSON, with each case's arguments as the case encoded them once
        canaries = f', "canaries": {json.dumps(plan.payload())}' if plan is not None else ""
        data = (
            f'{{"code": {json.dumps(job.code)}, "entry_point": {json.dumps(job.entry_point)}, '
            f'"args": [{", ".join(case.args_json() for case in cases)}]{canaries}}}'
        ).encode()
        restarts = 0 if job.stop_on_first_failure else len(timeouts)
        budget = load * (1 + restarts) + sum(walls) + 10.0
        failure: Exception | None = None
        for _ in range(2):
            try:
                response, duration, process = self._exchange(header, data, budget)
            except WorkerDied as exc:  # that worker is gone already
                failure = exc
                continue
            try:  # decoded after the worker is free again: its next check is already on its way
                return decode_response(response, cases, load), duration, process.description
            except (WorkerDied, HarnessFailed) as exc:
                failure = exc
                self._distrust(process)
        raise PoolError(f"the check failed twice, on a fresh worker the second time: {failure}")

    def _exchange(
        self, header: dict[str, Any], data: bytes, budget: float
    ) -> tuple[Response, float, WorkerProcess]:
        """One request to a free worker (a fresh one if the last one died, hung or was
        distrusted): its response, the time it took, and the worker."""
        if not self._slots:
            raise PoolError("the pool is closed")
        slot = self._idle.get()
        try:
            if slot.process is not None and slot.process in self._distrusted:
                slot.process.kill()
                slot.process = None
            if slot.process is None:
                try:
                    slot.process = self._new_worker()
                except SandboxError as exc:
                    raise PoolError(f"cannot start a worker: {exc}") from exc
            process, start = slot.process, time.monotonic()
            try:
                return process.run(header, data, budget), time.monotonic() - start, process
            except WorkerDied:
                self._distrust(process)
                process.kill()
                slot.process = None
                raise
        finally:
            self._idle.put(slot)

    def _distrust(self, process: WorkerProcess) -> None:
        """Count a failed worker; it is replaced before its next check."""
        with self._lock:
            self.restarts += 1
            self._distrusted.add(process)


class CalibrationError(ValueError):
    """The canonical solution failed on input ``index`` with ``error``."""

    def __init__(self, index: int, error: str | None) -> None:
        super().__init__(f"canonical solution failed on input {index}: {error}")
        self.index = index
        self.error = error


@dataclass(frozen=True)
class Calibration:
    """A canonical solution measured on the inputs: its outputs (the expected values), the
    median CPU time of each case, and the CPU-time limits derived from them."""

    inputs: list[list[Any]]
    outputs: list[Any]
    times_s: list[float]
    timeouts_s: list[float]

    def cases(self) -> list[Case]:
        """The test cases: each input with the canonical output and its timeout."""
        return [
            Case(list(args), out, limit)
            for args, out, limit in zip(self.inputs, self.outputs, self.timeouts_s, strict=True)
        ]


def scaled_timeouts(
    times_s: list[float], *, factor: float = DEFAULT_FACTOR, floor_s: float = DEFAULT_FLOOR_S
) -> list[float]:
    """Per-case CPU-time limits: ``max(floor_s, factor * time)``, 4x the canonical solution's
    CPU time, at least 0.25 s. EvalPlus's rule has the same shape on wall-clock time with a 1 s
    floor; counting CPU time (the worker reads the child's CPU clock) makes the limit hold on a
    busy machine, so the floor only has to cover the measurement of a fast case and the
    interpreter's warm-up, not waiting for a core. Most HumanEval canonical cases take well
    under a millisecond of CPU time, the slowest about 30 ms (HumanEval/75); each case also gets
    the wall-clock limit :func:`~truepass.sandbox.verdict.wall_limit`."""
    return [max(floor_s, factor * t) for t in times_s]


def calibrate(
    pool: ExecPool,
    code: str,
    entry_point: str,
    inputs: list[list[Any]],
    *,
    repeats: int = 3,
    factor: float = DEFAULT_FACTOR,
    floor_s: float = DEFAULT_FLOOR_S,
    measure_timeout_s: float = 60.0,
) -> Calibration:
    """Run the canonical solution ``repeats`` times in the pool and derive per-case CPU-time
    limits from each case's median CPU time (see :func:`scaled_timeouts`): the child's own
    measure of each call, where it is no more than the worker read on the child's CPU clock.

    Raises:
        CalibrationError: the canonical solution fails or times out on an input.
        ValueError: the canonical solution does not load or does not answer every input.
    """
    runs = [pool.execute(code, entry_point, inputs, timeout_s=measure_timeout_s)
            for _ in range(max(1, repeats))]  # fmt: skip
    for run in runs:
        if run.load != "ok":
            raise ValueError(f"canonical solution is {run.load}: {run.load_error}")
        for outcome in run.outcomes:
            if outcome.kind != "value":
                raise CalibrationError(outcome.index, outcome.error)
        if len(run.outcomes) != len(inputs):
            raise ValueError("canonical solution did not answer every input")
    times = [statistics.median(run.outcomes[i].cpu_s for run in runs)
             for i in range(len(inputs))]  # fmt: skip
    outputs = [outcome.value for outcome in runs[0].outcomes]
    return Calibration([list(a) for a in inputs], outputs, times,
                       scaled_timeouts(times, factor=factor, floor_s=floor_s))  # fmt: skip
