"""``truepass judge --suite humaneval`` from two source trees and the fork floor, in paired rounds.

    .venv/bin/python benchmarks/judge_before_after.py --before /tmp/base/src   # n=20, 3 rounds
    .venv/bin/python benchmarks/judge_before_after.py --before /tmp/base/src --n 4 --rounds 1

What a change to the parent's own work (start-up, suite loading, the store, the summary and the
report) does to the command a user runs at pass@k scale: HumanEval's 164 problems with ``--n``
canonical completions each (3,280 checks at n = 20), judged warm (each tree's check cache and
suite cache primed by one untimed run) by ``truepass judge --suite humaneval --patches FILE --out
FRESH --check-cache FILE`` with this checkout's ``src`` and with ``--before``, and by
benchmarks/fork_floor.py (a child forked per check and nothing else). Each round runs the three
back to back (the order rotating); the ratios are medians of the per-round ratios. Every run's
load average (before -> after), the cores other processes kept busy meanwhile and the CPU time of
the command's own process (truepass's parent: start-up, loading, storing, summary and report;
the floor's forking parent) are printed, and
runs whose cores were shared are listed as UNRELIABLE (peers_tools.unreliable). The two trees'
verdicts are compared check by check: any difference is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers_tools import REPO, ToolRun, run_floor, run_truepass, unreliable
from peers_workloads import load_problems, scale_workloads, write_files
from rounds import paired_ratios, rotation, verdict_lines

DEFAULT_FIX = REPO.parent / "shared" / "benchmarks" / "humanevalpack-python"
LIMIT_S = 3600.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="the other tree's src directory")
    ap.add_argument("--n", type=int, default=20, help="completions per problem")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workdir", type=Path, help="keep inputs and runs here")
    ap.add_argument("--json", type=Path, help="write the numbers here")
    ap.add_argument("--no-floor", action="store_true", help="the two trees only")
    args = ap.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="judge_before_after-"))
    problems, _ = load_problems(None, DEFAULT_FIX)
    (workload,) = [w for w in scale_workloads(problems, args.n) if w.name == "canonical"]
    files = write_files(workload, work / "inputs")
    files["tp_suite_ref"] = Path("humaneval")
    ids = {p.sample_id: p.task_id for p in workload.problems}
    trees = {"after": REPO / "src", "before": args.before}

    def truepass(tree: str, run_dir: Path) -> ToolRun:
        os.environ["PYTHONPATH"] = str(trees[tree])
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # start-up as installed: bytecode cached
        return run_truepass(files, run_dir, ids, LIMIT_S, work / "cache" / tree)

    for tree in trees:  # check cache, suite cache and bytecode warm, untimed
        truepass(tree, work / "prime" / tree)
    runs: dict[str, list[ToolRun]] = {"floor": [], "before": [], "after": []}
    if args.no_floor:
        del runs["floor"]
    order = list(runs)
    for r in range(args.rounds):
        for name in rotation(order, r):
            run_dir = work / "runs" / name / str(r)
            got = (run_floor(files, run_dir, LIMIT_S, 0.25) if name == "floor"
                   else truepass(name, run_dir))  # fmt: skip
            got.round = r
            got.tool = "truepass" if name != "floor" else "floor"
            runs[name].append(got)
            load = f"{got.load[0]:.1f}->{got.load[1]:.1f}"
            print(f"round {r + 1} {name}: {got.timed:.2f} s, load {load}, others "
                  f"{got.others_cores:.1f} cores", flush=True)  # fmt: skip
    pairs = [("before", "after")] + ([] if args.no_floor else [("after", "floor"),
                                                                 ("before", "floor")])  # fmt: skip
    ratios = {f"{a} / {b}": statistics.median(paired_ratios(runs[a], runs[b])) for a, b in pairs}
    checks = len(workload.checks())
    print(f"\n{checks} checks, {args.rounds} paired rounds on {os.cpu_count()} cores")
    print("| run | median s | own process CPU s | " + " | ".join(
        f"round {r + 1} s (load, others)" for r in range(args.rounds)) + " |")  # fmt: skip
    print("|---|---:|---:|" + "---:|" * args.rounds)
    for name, rs in runs.items():
        cells = [f"{x.timed:.2f} ({x.load[0]:.1f}->{x.load[1]:.1f}, {x.others_cores:.1f})"
                 for x in rs]  # fmt: skip
        own = statistics.median(x.own_cpu_s for x in rs)
        print(f"| {name} | {statistics.median(x.timed for x in rs):.2f} | {own:.2f} | "
              + " | ".join(cells) + " |")  # fmt: skip
    for key, value in ratios.items():
        print(f"{key}: {value:.2f}x (median of the per-round ratios)")
    differ = [
        k
        for k in runs["after"][0].passed
        if (runs["after"][0].passed[k], runs["after"][0].detail.get(k))
        != (runs["before"][0].passed.get(k), runs["before"][0].detail.get(k))
    ]
    print(f"verdicts: {len(differ)} of {checks} checks differ between the trees"
          + (f" (first: {differ[:5]})" if differ else ""))  # fmt: skip
    flagged = [why for rs in runs.values() for x in rs if (why := unreliable(x))]
    print("\n".join(verdict_lines(flagged)))
    if args.json:
        data = {
            "checks": checks, "ratios": ratios, "differ": len(differ), "unreliable": flagged,
            "runs": {n: [{"s": x.timed, "load": x.load, "others_cores": x.others_cores,
                          "own_cpu_s": x.own_cpu_s} for x in rs] for n, rs in runs.items()},
        }  # fmt: skip
        args.json.write_text(json.dumps(data, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
