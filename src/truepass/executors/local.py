"""The local executor: sandboxed jobs on this machine, with the run's own family."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from threading import Thread
from typing import Any

from truepass.executors.base import Job, OnDone
from truepass.families.base import Family
from truepass.judged import JudgeConfig


class LocalExecutor:
    """Judges on this machine with the run's own family (its warm pools included).

    By default in the calling thread: the runner calls :meth:`submit` from its ``--jobs``
    threads, right after solving. A family whose checks are short hand-offs to warm workers
    (codegen: ``family.local_width``, twice its pool's workers) gets that many threads of its
    own instead, so a worker always has the next check waiting while this process decodes and
    judges the last one, and the solving threads go on solving.
    """

    spec = "local"

    def __init__(self, family: Family, config: JudgeConfig | None = None) -> None:
        self.family = family
        width = family.local_width
        self._threads = ThreadPoolExecutor(width, "truepass-judge") if width else None
        self._warming: Thread | None = None
        if config is not None:  # the family's workers start while the run reads its checks
            self._warming = Thread(target=family.warm, args=(config,), name="truepass-warm")
            self._warming.start()

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
        if self._warming is not None:
            self._warming.join()
        if self._threads is not None:
            self._threads.shutdown(wait=True, cancel_futures=True)
