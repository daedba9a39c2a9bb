"""How long ``truepass --help`` and ``truepass suites`` take from the shell, in paired rounds.

    .venv/bin/python benchmarks/quick_start.py                         # this checkout, 5 rounds
    .venv/bin/python benchmarks/quick_start.py --before /tmp/base/src  # against another source tree

Each round runs every command once with this checkout's ``src`` and, with ``--before``, once
with the other tree's, back to back (the order alternating between rounds), each a fresh
``python -m truepass.cli`` process with the interpreter's bytecode caches written and warm (one
untimed run of each first); ``truepass suites`` finds its listing cache warm too. Reported: the
median wall-clock and CPU seconds over the rounds, the median of the per-round ratios
(before / after), the 1-minute load average before and after every round, and an UNRELIABLE line
for every command whose cores other work took while it ran (benchmarks/rounds.py: the cores
other processes kept busy, from ``/proc/stat`` less the command's own CPU time, above the one
core a command leaves spare, plus 0.2).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import Timing, Window, by_tool, median_ratio, rotation, unreliable, verdict_lines

REPO = Path(__file__).resolve().parents[1]
COMMANDS = (("--help",), ("suites",))
GOAL_S = 0.3


def timed(src: Path, args: tuple[str, ...], tool: str = "", round_: int = 0) -> Timing:
    """One ``truepass ARGS``: its window (wall-clock seconds; CPU seconds, the child's and this
    process's; load; others' cores)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(src)
    with Window() as window:
        subprocess.run([sys.executable, "-m", "truepass.cli", *args], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    return window.timing(tool, round_)


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
    runs: list[Timing] = []
    loads: list[tuple[float, float]] = []
    for n in range(args.rounds):
        load_before = os.getloadavg()[0]
        for command in COMMANDS:
            for name in rotation(list(trees), n):
                runs.append(timed(trees[name], command, f"{' '.join(command)} {name}", n))
        loads.append((load_before, os.getloadavg()[0]))
    have = by_tool(runs)
    rows = {key: {"wall": [r.seconds for r in rs], "cpu": [r.cpu_s for r in rs]}
            for key, rs in have.items()}  # fmt: skip
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
            ratios[c] = median_ratio(have[f"{c} before"], have[f"{c} after"])
            print(f"truepass {c}: median of the per-round ratios before/after {ratios[c]:.2f}x")
    busy = [why for r in runs if (why := unreliable(r, 1))]
    print("\n".join(verdict_lines(busy)))
    if args.json:
        data = {"rows": rows, "ratios": ratios, "loads": loads, "cores": cores, "busy": busy}
        args.json.write_text(json.dumps(data, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
