"""Cost of one agent step in a SandboxSession against the same command run directly: same run.

    .venv/bin/python benchmarks/agent_step.py [--runs 30]

Workloads (each a shell command, run in a workspace holding the same small files):

  true      ``true``: nothing but the cost of starting the command
  echo      ``echo hello``
  pytest    ``python -m pytest -q -p no:cacheprovider test_small.py`` (3 tests of a 2-function
            module): an interpreter start and a small test run, what a repair agent does

Engines:

  session        SandboxSession.run(command): a fresh sandbox over the session's persistent
                 workspace (the tier is printed: bwrap, or the rlimits-only fallback)
  direct         subprocess.run(["/bin/sh", "-c", command]) in a plain temporary directory
                 holding the same files: no sandbox at all (the peer every ratio is against)
  run_sandboxed  run_sandboxed(["/bin/sh", "-c", command], files): a one-shot sandbox that copies
                 the files in each time (what a step would cost without a session)

Runs are interleaved (one of each engine in turn) so that load changes hit all of them alike;
the first ``--warmup`` runs of each are dropped. Prints, per step, the median and 90th
percentile of the wall time and the ratio of each median to ``direct``'s. Only wall time is
reported: the CPU time of what runs inside bwrap never reaches this process's
``RUSAGE_CHILDREN`` (bwrap's monitor exits without reaping the sandbox's init), so a CPU column
would undercount the sandboxed engines. Compare figures of the same run only. Nothing here
asserts a time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from truepass.sandbox import Limits, run_sandboxed, sandbox_tier
from truepass.sandbox.session import SandboxSession

FILES = {
    "small.py": "def add(a, b):\n    return a + b\n\n\ndef neg(a):\n    return -a\n",
    "test_small.py": (
        "from small import add, neg\n\n\n"
        "def test_add():\n    assert add(1, 2) == 3\n\n\n"
        "def test_neg():\n    assert neg(2) == -2\n\n\n"
        "def test_both():\n    assert add(neg(1), 1) == 0\n"
    ),
}
WORKLOADS = {
    "true": "true",
    "echo": "echo hello",
    "pytest": "python -m pytest -q -p no:cacheprovider test_small.py",
}
LIMITS = Limits(timeout_s=60, memory_mb=2048, disk_mb=64)


def measure(step: Callable[[], None]) -> float:
    """Wall seconds of one call."""
    start = time.perf_counter()
    step()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="measured runs per engine and step")
    parser.add_argument("--warmup", type=int, default=2, help="dropped runs per engine and step")
    args = parser.parse_args()

    direct_dir = Path(tempfile.mkdtemp(prefix="agent-step-direct-"))
    for name, text in FILES.items():
        (direct_dir / name).write_text(text)
    env = {
        "PATH": f"{os.path.dirname(sys.executable)}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(direct_dir), "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
    }  # fmt: skip

    opened: list[float] = []
    for _ in range(5):
        wall = time.perf_counter()
        SandboxSession(FILES, limits=LIMITS).close()
        opened.append(time.perf_counter() - wall)

    try:
        with SandboxSession(FILES, limits=LIMITS) as session:
            print(f"tier: {sandbox_tier()}  runs: {args.runs} (+{args.warmup} warm-up)  "
                  f"cpus: {os.cpu_count()}  load: {os.getloadavg()[0]:.1f}")  # fmt: skip
            print(f"opening + closing a session: median {statistics.median(opened) * 1e3:.1f} ms")
            print()
            print(f"{'step':8} {'engine':14} {'median ms':>10} {'p90 ms':>8} {'x direct':>9}")
            for step, command in WORKLOADS.items():

                def direct(c: str = command) -> None:
                    argv = ["/bin/sh", "-c", c]
                    _ok(
                        subprocess.run(
                            argv, cwd=direct_dir, env=env, capture_output=True
                        ).returncode
                    )

                engines: dict[str, Callable[[], None]] = {
                    "session": lambda c=command: _ok(session.run(c).exit_code),
                    "direct": direct,
                    "run_sandboxed": lambda c=command: _ok(
                        run_sandboxed(["/bin/sh", "-c", c], FILES, limits=LIMITS).returncode
                    ),
                }
                walls: dict[str, list[float]] = {name: [] for name in engines}
                for index in range(args.warmup + args.runs):
                    for name, run in engines.items():
                        wall = measure(run)
                        if index >= args.warmup:
                            walls[name].append(wall)
                base = statistics.median(walls["direct"])
                for name in engines:
                    median = statistics.median(walls[name])
                    p90 = statistics.quantiles(walls[name], n=10)[-1]
                    print(
                        f"{step:8} {name:14} {median * 1e3:10.1f} {p90 * 1e3:8.1f} "
                        f"{median / base:9.1f}"
                    )
    finally:
        shutil.rmtree(direct_dir)


def _ok(code: int | None) -> None:
    if code != 0:
        raise SystemExit(f"a benchmark command failed with exit code {code}")


if __name__ == "__main__":
    main()
