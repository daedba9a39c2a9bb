"""The local executor: jobs run in the caller's thread, or on the executor's own threads when the
family asks for them (codegen: checks are short hand-offs to warm workers)."""

from __future__ import annotations

import threading
import time

from truepass.executors import Job, LocalExecutor
from truepass.judged import JudgeConfig


class _SlowFamily:
    """A family whose jobs wait for a gate: shows where the local executor runs them."""

    name = "codegen"

    def __init__(self, width: int | None) -> None:
        self.local_width = width
        self.gate = threading.Event()
        self.threads: set[str] = set()

    def check(self, sample: object, config: JudgeConfig) -> str:
        self.threads.add(threading.current_thread().name)
        assert self.gate.wait(10)
        return f"checked {sample}"


def test_local_executor_runs_in_the_callers_thread_unless_the_family_asks_for_threads() -> None:
    inline = _SlowFamily(None)
    inline.gate.set()
    got: list[object] = []
    LocalExecutor(inline).submit(Job("check", "codegen", "a", JudgeConfig()), "k", got.append)  # type: ignore[arg-type]
    assert [o.result() for o in got] == ["checked a"]  # type: ignore[attr-defined]
    assert inline.threads == {threading.current_thread().name}

    threaded = _SlowFamily(3)
    executor = LocalExecutor(threaded)  # type: ignore[arg-type]
    done: list[object] = []
    for name in "abcd":  # returns at once: the jobs wait on the executor's own threads
        executor.submit(Job("check", "codegen", name, JudgeConfig()), name, done.append)
    assert done == []
    threaded.gate.set()
    deadline = time.monotonic() + 10
    while len(done) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    executor.close()
    assert sorted(o.result() for o in done) == [f"checked {n}" for n in "abcd"]  # type: ignore[attr-defined]
    assert len(threaded.threads) == 3
    assert all(name.startswith("truepass-judge") for name in threaded.threads)


class _WarmFamily(_SlowFamily):
    """Records where and with what it was warmed; warming waits for the gate."""

    def __init__(self) -> None:
        super().__init__(None)
        self.warmed: list[tuple[str, JudgeConfig]] = []

    def warm(self, config: JudgeConfig) -> None:
        assert self.gate.wait(10)
        self.warmed.append((threading.current_thread().name, config))


def test_local_executor_warms_the_family_in_a_thread_of_its_own_and_waits_for_it_on_close() -> None:
    family = _WarmFamily()
    config = JudgeConfig(reruns=2)
    executor = LocalExecutor(family, config)  # type: ignore[arg-type]
    assert family.warmed == []  # opening did not wait for the warming
    family.gate.set()
    executor.close()  # joins the warming thread
    assert family.warmed == [("truepass-warm", config)]

    cold = _WarmFamily()
    cold.gate.set()
    LocalExecutor(cold).close()  # no config: nothing to warm with
    assert cold.warmed == []
