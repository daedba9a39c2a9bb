"""Cost of one agent step in a SandboxSession against the same command run directly: same run.

    .venv/bin/python benchmarks/agent_step.py [--runs 30] [--rounds 5]

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

Runs go in paired rounds (benchmarks/rounds.py): after ``--warmup`` untimed runs of each, every
round runs each engine ``--runs / --rounds`` times back to back, the order of engines rotating
from round to round. Prints, per step, the median and 90th percentile of the wall time of one
run, and each engine's ratio to ``direct``: the median of the per-round ratios. Then, per step,
the rounds (seconds per run, the load average before and after, the cores other work kept busy
meanwhile, counting the sandboxes' CPU time as this process's own) and an UNRELIABLE line for
every engine's round whose cores other work took. Only wall time is compared. Compare figures of
the same run only. Nothing here asserts a time.
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
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds the runs are split in")
    args = parser.parse_args()
    idle_before = os.getloadavg()[0]
    adopt_orphans()  # the sandboxes' CPU time is this process's own
    n_rounds = max(1, min(args.rounds, args.runs))
    per = max(1, args.runs // n_rounds)

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
            print(f"tier: {sandbox_tier()}  runs: {per * n_rounds} in {n_rounds} rounds "
                  f"(+{args.warmup} warm-up)  cpus: {os.cpu_count()}  "
                  f"load: {os.getloadavg()[0]:.1f}")  # fmt: skip
            print(f"opening + closing a session: median {statistics.median(opened) * 1e3:.1f} ms")
            print()
            print(f"{'step':8} {'engine':14} {'median ms':>10} {'p90 ms':>8} {'x direct':>9}")
            reports: list[list[str]] = []
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
                for _ in range(args.warmup):
                    for run in engines.values():
                        run()
                walls: dict[str, list[float]] = {name: [] for name in engines}
                timings: list[Timing] = []
                for r in range(n_rounds):
                    for name in rotation(list(engines), r):

                        def block(run: Callable[[], None] = engines[name],
                                  out: list[float] = walls[name]) -> None:  # fmt: skip
                            out.extend(measure(run) for _ in range(per))

                        timings.append(per_item(timed(name, r, block)[1], per))
                    reap_orphans()
                have = by_tool(timings)
                for name in engines:
                    median = statistics.median(walls[name])
                    p90 = (
                        statistics.quantiles(walls[name], n=10)[-1]
                        if per * n_rounds > 1
                        else median
                    )
                    ratio = median_ratio(have[name], have["direct"]) or float("nan")
                    print(f"{step:8} {name:14} {median * 1e3:10.1f} {p90 * 1e3:8.1f} {ratio:9.1f}")
                pairs = [("session", "direct"), ("run_sandboxed", "direct")]
                reports.append(report(f"step {step}", timings, pairs, idle_before, digits=4))
            print("\n(x direct: the median of the per-round ratios of seconds per run)")
            for lines in reports:
                print()
                print("\n".join(lines))
    finally:
        shutil.rmtree(direct_dir)


def _ok(code: int | None) -> None:
    if code != 0:
        raise SystemExit(f"a benchmark command failed with exit code {code}")


if __name__ == "__main__":
    main()
