"""How long ``truepass --help`` and ``truepass suites`` take from the shell, in paired rounds.

    .venv/bin/python benchmarks/quick_start.py                         # this checkout, 5 rounds
    .venv/bin/python benchmarks/quick_start.py --before /tmp/base/src  # against another source tree

Each round runs every command once with this checkout's ``src`` and, with ``--before``, once
with the other tree's, back to back (the order alternating between rounds), each a fresh
``python -m truepass.cli`` process with the interpreter's bytecode caches written and warm (one
untimed run of each first); ``truepass suites`` finds its listing cache warm too. Reported: the
median wall-clock and CPU seconds over the rounds, the median of the per-round ratios
(before / after), and the 1-minute load average before and after every round. A round whose load
average is above the machine's core count minus one (a command uses one core) is counted as
loaded, and the figures are marked unreliable when any round was.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COMMANDS = (("--help",), ("suites",))
GOAL_S = 0.3


def timed(src: Path, args: tuple[str, ...]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system, the child's) of one ``truepass ARGS``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(src)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "truepass.cli", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--before", type=Path, help="another source tree (its src directory)")
    ap.add_argument("--json", type=Path, help="write the numbers here")
    args = ap.parse_args(argv)
    trees = {"after": REPO / "src"} | ({"before": args.before} if args.before else {})
    for src in trees.values():  # bytecode and the listing cache written, untimed
        for command in COMMANDS:
            timed(src, command)
    cores = os.cpu_count() or 1
    rows: dict[str, dict[str, list[float]]] = {}
    loads: list[tuple[float, float]] = []
    for n in range(args.rounds):
        load_before = os.getloadavg()[0]
        order = list(trees.items()) if n % 2 == 0 else list(reversed(trees.items()))
        for command in COMMANDS:
            for name, src in order:
                wall, cpu = timed(src, command)
                row = rows.setdefault(f"{' '.join(command)} {name}", {"wall": [], "cpu": []})
                row["wall"].append(wall)
                row["cpu"].append(cpu)
        loads.append((load_before, os.getloadavg()[0]))
    busy = [i + 1 for i, (a, b) in enumerate(loads) if max(a, b) > cores - 1]
    print(f"{args.rounds} paired rounds on {cores} cores; load average (1 min) before/after "
          "each round: " + ", ".join(f"{a:.1f}/{b:.1f}" for a, b in loads))  # fmt: skip
    print(f"| command | tree | wall s (median) | CPU s (median) | under {GOAL_S} s |")
    print("|---|---|---:|---:|---|")
    for key, row in rows.items():
        command, _, name = key.rpartition(" ")
        wall, cpu = statistics.median(row["wall"]), statistics.median(row["cpu"])
        print(f"| truepass {command} | {name} | {wall:.3f} | {cpu:.3f} | "
              f"{'yes' if wall < GOAL_S else 'no'} |")  # fmt: skip
    ratios = {}
    if "before" in trees:
        for command in COMMANDS:
            c = " ".join(command)
            per_round = [
                b / a
                for b, a in zip(
                    rows[f"{c} before"]["wall"], rows[f"{c} after"]["wall"], strict=True
                )
            ]
            ratios[c] = statistics.median(per_round)
            print(f"truepass {c}: median of the per-round ratios before/after {ratios[c]:.2f}x")
    if busy:
        print(f"UNRELIABLE: the load average exceeded {cores - 1} (cores minus the command's one) "
              f"in round(s) {', '.join(map(str, busy))}: other work shared the cores, so wall "
              "times are longer than on an idle machine (CPU times less so)")  # fmt: skip
    if args.json:
        data = {"rows": rows, "ratios": ratios, "loads": loads, "cores": cores, "busy": busy}
        args.json.write_text(json.dumps(data, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
