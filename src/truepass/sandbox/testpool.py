"""Warm test runs, the trusted parent's side: a process-wide pool of sandboxed pytest workers.

A cold test run (:func:`truepass.sandbox.run_sandboxed`) starts bubblewrap, an interpreter and
pytest for every run. A warm run goes to a worker (``pytestworker.py``) started once per
:class:`PoolKey`, in the same sandbox plan, with pytest imported and warmed up; it forks a fresh
confined child per run (see its docstring and docs/sandbox.md). The answer is the same
:class:`~truepass.sandbox.SandboxResult` a cold run gives (tier ``bwrap``).

Only the ``bwrap`` tier has warm runs, and only where the child's seccomp filter loads; anything
else (and ``TRUEPASS_WARM_TESTS=0``) makes :func:`shared_pool` return None: the caller runs cold.
A worker that dies, hangs or answers something malformed is replaced and the run retried once on
the fresh worker; a second failure raises :class:`WarmUnavailable` (the caller then runs cold).
"""

from __future__ import annotations

import atexit
import concurrent.futures
import dataclasses
import json
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

from truepass.errors import SandboxError
from truepass.sandbox import runner
from truepass.sandbox.bwrap import WORKSPACE
from truepass.sandbox.models import Limits, SandboxResult
from truepass.sandbox.workerproc import SHIPPED, Response, WorkerConfig, WorkerDied, WorkerProcess

log = logging.getLogger(__name__)

__all__ = [
    "MAX_POOLS", "PER_RUN", "WORKSPACE", "PoolKey", "PoolView", "TestPool", "WarmUnavailable",
    "close_all", "pool_limits", "shared_pool", "warm_wanted",
]  # fmt: skip

WARM_ENV = "TRUEPASS_WARM_TESTS"  # "0", "off", "cold" or "false": every test run is cold
WORKERS_ENV = "TRUEPASS_WARM_WORKERS"  # workers per pool (default: the number of CPUs)
OPTIONAL_PLUGINS = ("pytest_timeout",)  # pre-imported; cold only for runs naming them with -p
ANSWER_GRACE_S = 30.0  # beyond the run's timeout, for the worker to kill, drain and answer


PER_RUN = ("timeout_s", "cpu_s")  # limits each run brings; the others are its worker's
MAX_POOLS = 2  # pools kept alive per process; the least recently used idle ones are closed


def pool_limits(limits: Limits) -> Limits:
    """``limits`` with the per-run ones (:data:`PER_RUN`) at their defaults: what a worker is
    started with, so that runs differing only in those share it."""
    return limits.model_copy(update={name: Limits.model_fields[name].default for name in PER_RUN})


class WarmUnavailable(SandboxError):
    """A warm run could not be carried out (no worker starts, or it failed twice): run cold."""


class _HarnessFailed(Exception):
    """The child failed before pytest ran: the worker is replaced, the run retried."""


def warm_wanted(flag: bool | None = None) -> bool:
    """Whether test runs should be warm: ``flag`` if given, else ``$TRUEPASS_WARM_TESTS``
    (default on)."""
    if flag is not None:
        return flag
    return os.environ.get(WARM_ENV, "1").strip().lower() not in ("0", "off", "cold", "false", "no")


@dataclass(frozen=True)
class PoolKey:
    """What a worker is started with: runs of different keys never share a worker."""

    limits: Limits  # the sandbox's: per-run limits at their defaults (pool_limits)
    ro_binds: tuple[tuple[str, str], ...]  # host path, sandbox path (the harness)
    pythonpath: str  # PYTHONPATH of every run (the worker starts with it too)
    plugins: tuple[str, ...]  # `-p` plugins of every run, imported by the worker


class _Slot:
    """One worker place; its process is started on first use and replaced when it fails."""

    def __init__(self) -> None:
        self.process: WorkerProcess | None = None


class TestPool:
    """Warm pytest workers for one :class:`PoolKey`, started on demand up to ``size``;
    thread-safe (a worker runs one test run at a time, :meth:`run` waits for a free one)."""

    __test__ = False  # not a pytest test class

    def __init__(self, key: PoolKey, size: int) -> None:
        self.key = key
        self.size = max(1, size)
        self.restarts = 0  # workers replaced after dying, hanging or misbehaving
        self.runs = 0
        self.sandbox = ""  # e.g. bwrap+landlock7+seccomp, once a worker started
        self.notes: list[str] = []
        self.broken = ""  # why no worker can start here (then every run raises)
        self._slots: list[_Slot] = []
        self._idle: list[_Slot] = []
        self._cond = threading.Condition()
        self._closed = False
        # Every worker is started from this one thread, alive as long as the pool: bwrap's
        # --die-with-parent follows the thread that started it (see WorkerProcess).
        self._spawner = concurrent.futures.ThreadPoolExecutor(1, "truepass-testpool-spawner")
        lim = key.limits
        self._config = WorkerConfig(
            memory_mb=lim.memory_mb,
            child_limits={
                "memory_mb": lim.memory_mb, "file_size_mb": lim.file_size_mb,
                "open_files": lim.open_files, "output_bytes": lim.output_bytes,
                # tasks of uid 65534 in the sandbox: its init and the worker, then the run's
                # own processes, as a cold run's max_processes + 1 counts its init
                "nproc": lim.max_processes + 2,
            },
            disk_mb=lim.disk_mb, max_threads=lim.max_processes,
            result_bytes=lim.output_bytes, output_bytes=2 * lim.output_bytes,
            landlock=True, seccomp=True,
            script="pytestworker.py", shipped=(*SHIPPED, "pytestworker.py", "pytestsession.py"),
            python_flags=("-P",),
            env=(
                ("PYTHONPATH", key.pythonpath), ("PYTHONNOUSERSITE", "1"),
                ("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1"),
                ("TRUEPASS_PLUGINS", ",".join(key.plugins)),
                ("TRUEPASS_OPTIONAL_PLUGINS", ",".join(OPTIONAL_PLUGINS)),
            ),
            ro_binds=key.ro_binds, file_size_mb=lim.file_size_mb,
            open_files=max(lim.open_files, 256),
        )  # fmt: skip

    def run(
        self,
        args: list[str],
        env: Mapping[str, str],
        files: Mapping[str, str],
        compiled: Mapping[str, Mapping[str, str]] | None = None,
        limits: Limits | None = None,
    ) -> SandboxResult:
        """One test run: ``python -P -m pytest ARGS`` in a fresh workspace holding ``files``,
        with exactly the environment ``env`` (plus the channel's ``TRUEPASS_CHANNEL_FD``).
        ``compiled``: code compiled here for pristine files (:mod:`truepass.sandbox.
        precompiled`): ``{"rewrites": {path: code}, "compiled": {path: code}}``. ``limits``:
        the run's (default: the key's); only its :data:`PER_RUN` ones may differ from the key's.

        Raises:
            WarmUnavailable: no worker could be started, or the run failed on two workers.
            ValueError: ``limits`` differ from the key's in more than :data:`PER_RUN`.
        """
        limits = limits or self.key.limits
        if pool_limits(limits) != self.key.limits:
            raise ValueError("these limits need a pool of their own (see pool_limits)")
        if self.broken:
            raise WarmUnavailable(self.broken)
        if any(not isinstance(v, str) for v in files.values()):
            raise WarmUnavailable("warm runs take text files only")
        runner.check_files(files, limits)
        payload = json.dumps(
            {"args": list(args), "env": dict(env), "files": dict(files), "cpu_s": limits.cpu_s,
             **{kind: dict(codes) for kind, codes in (compiled or {}).items()}}
        ).encode()  # fmt: skip
        timeout = limits.timeout_s
        header = {"timeout_s": timeout}
        slot = self._acquire()
        failure: Exception | None = None
        try:
            for _ in range(2):
                process = slot.process
                if process is None:
                    process = slot.process = self._start()
                try:
                    response = process.run(header, payload, timeout + ANSWER_GRACE_S)
                    result = _result(response)
                except (WorkerDied, _HarnessFailed) as exc:
                    failure = exc
                    with self._cond:
                        self.restarts += 1
                    process.kill()
                    slot.process = None
                    if self._closed:
                        break
                    continue
                with self._cond:
                    self.runs += 1
                return result
        finally:
            self._release(slot)
        raise WarmUnavailable(
            f"the test run failed twice, on a fresh worker the second time: {failure}"
        )

    def _start(self) -> WorkerProcess:
        try:
            process = WorkerProcess(self._config, lambda make: self._spawner.submit(make).result())
        except (SandboxError, RuntimeError) as exc:
            self.broken = f"cannot start a warm test worker: {exc}"
            raise WarmUnavailable(self.broken) from exc
        if not process.hello.get("seccomp"):
            notes = "; ".join(process.hello.get("notes", []))
            process.kill()
            self.broken = f"the test run's seccomp filter does not load here ({notes})"
            raise WarmUnavailable(self.broken)
        self.sandbox = process.description
        self.notes = list(process.hello.get("notes", []))
        return process

    def _acquire(self) -> _Slot:
        with self._cond:
            while True:
                if self._closed:
                    raise WarmUnavailable("the warm test pool is closed")
                if self._idle:
                    return self._idle.pop()
                if len(self._slots) < self.size:
                    slot = _Slot()
                    self._slots.append(slot)
                    return slot
                self._cond.wait()

    @property
    def idle(self) -> bool:
        """No run in progress."""
        with self._cond:
            return len(self._idle) == len(self._slots)

    def _release(self, slot: _Slot) -> None:
        with self._cond:
            self._idle.append(slot)
            self._cond.notify()

    def close(self) -> None:
        """Stop every worker (idempotent); later runs raise :class:`WarmUnavailable`."""
        with self._cond:
            self._closed = True
            slots, self._slots, self._idle = self._slots, [], []
            self._cond.notify_all()
        live = [slot.process for slot in slots if slot.process is not None]
        for process in live:
            process.request_exit()
        for process in live:
            process.close()
        for slot in slots:
            slot.process = None
        self._spawner.shutdown(wait=True)


def _result(response: Response) -> SandboxResult:
    """The worker's answer as a cold run's :class:`SandboxResult`."""
    if len(response.events) != 1 or not isinstance(response.events[0], dict):
        raise WorkerDied("malformed answer: one outcome expected")
    event = response.events[0]
    if not event.get("armed"):
        raise _HarnessFailed(str(event.get("error", "the child failed before pytest ran")))
    try:
        n_out, n_err = int(event["stdout"]), int(event["stderr"])
        timed_out = bool(event["timed_out"])
        code = None if timed_out else int(event["code"])
        duration = float(event["duration"])
    except (KeyError, TypeError, ValueError) as exc:
        raise WorkerDied(f"malformed answer: {exc}") from exc
    if n_out < 0 or n_err < 0 or n_out + n_err != len(response.output):
        raise WorkerDied("malformed answer: output sizes do not add up")
    out = response.output
    return SandboxResult(
        tier=runner.BWRAP,
        returncode=code,
        stdout=out[:n_out].decode("utf-8", errors="replace"),
        stderr=out[n_out:].decode("utf-8", errors="replace"),
        channel=bytes(response.results),
        timed_out=timed_out,
        output_truncated=bool(event.get("truncated")),
        duration_s=round(duration, 4),
    )


class PoolView:
    """A shared pool as the caller of :func:`shared_pool` sees it: its runs default to the
    limits of the caller's key (the pool itself is shared by keys that differ only in
    :data:`PER_RUN` limits). Everything else is the pool's."""

    __test__ = False  # not a pytest test class

    def __init__(self, pool: TestPool, limits: Limits) -> None:
        self.pool = pool
        self.limits = limits

    def run(
        self,
        args: list[str],
        env: Mapping[str, str],
        files: Mapping[str, str],
        compiled: Mapping[str, Mapping[str, str]] | None = None,
        limits: Limits | None = None,
    ) -> SandboxResult:
        """:meth:`TestPool.run` under ``limits``, by default the caller's key's."""
        return self.pool.run(args, env, files, compiled, limits or self.limits)

    def __getattr__(self, name: str) -> object:
        return getattr(self.pool, name)


_pools: OrderedDict[PoolKey, TestPool] = OrderedDict()  # least recently used first
_cold: dict[PoolKey, str] = {}  # keys whose runs are cold in this process, and why
_lock = threading.Lock()


def shared_pool(key: PoolKey) -> PoolView | None:
    """This process's pool for ``key`` (made on first use; keys that differ only in their
    :data:`PER_RUN` limits share one), or None where runs must be cold: not the bwrap tier, or
    no worker could start here (said once, as a warning). Making a pool closes the least
    recently used idle ones beyond :data:`MAX_POOLS`."""
    limits = key.limits
    key = dataclasses.replace(key, limits=pool_limits(limits))
    pool = _shared(key)
    return None if pool is None else PoolView(pool, limits)


def _shared(key: PoolKey) -> TestPool | None:
    with _lock:
        pool = _pools.get(key)
        if pool is not None and not pool.broken:
            _pools.move_to_end(key)
            return pool
        if pool is not None:
            del _pools[key]
            _cold[key] = pool.broken
            log.warning("warm test runs are off, test runs run cold: %s", pool.broken)
        if key in _cold:
            return None
        try:
            tier = runner.sandbox_tier()
        except SandboxError as exc:
            tier = str(exc)
        if tier != runner.BWRAP:
            _cold[key] = f"tier {tier}"  # the rlimits-only tier keeps cold runs
            return None
        size = _workers()
        pool = _pools[key] = TestPool(key, size)
        spare = [k for k, p in _pools.items() if k != key and p.idle]
        retired = [_pools.pop(k) for k in spare[: max(0, len(_pools) - MAX_POOLS)]]
    for old in retired:
        old.close()
    return pool


def _workers() -> int:
    """``$TRUEPASS_WARM_WORKERS``, or the number of CPUs."""
    try:
        wanted = int(os.environ.get(WORKERS_ENV, "") or 0)
    except ValueError:
        log.warning("%s must be a number of workers; using the number of CPUs", WORKERS_ENV)
        wanted = 0
    return wanted if wanted > 0 else (os.cpu_count() or 1)


def close_all() -> None:
    """Stop every pool of this process (at exit; tests) and forget why runs were cold."""
    with _lock:
        pools = list(_pools.values())
        _pools.clear()
        _cold.clear()
    for pool in pools:
        pool.close()


def _forget_after_fork() -> None:
    """A forked copy of this process must not talk to its parent's workers."""
    global _lock
    _pools.clear()
    _cold.clear()
    _lock = threading.Lock()


atexit.register(close_all)
os.register_at_fork(after_in_child=_forget_after_fork)
