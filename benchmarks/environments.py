"""Repository environments: what building one costs, what it takes on disk, and what judging an
attempt in one costs, per repository of ``../shared/benchmarks/real-repos``.

For the first commit of each repository in ``commits.toml`` (its base: the commit's parent):

* the environment built cold (an empty truepass cache; uv's own download cache as the machine
  has it, said in the output), then found again in the cache (a new process would do the
  same: the in-process memo is cleared), beside the peer: ``uv sync --frozen`` with the test
  group (a ``uv.lock``) or ``uv venv`` + ``uv pip install -r FILE -e .`` (a requirement file)
  run directly on a checkout, with no sandbox and no build isolation of ours;
* its size on disk;
* the judge's time per attempt on the commit's harvested sample (the reference fix judged: its
  visible and hidden runs, in the sandbox), beside bare pytest on the same test modules with the
  same environment's interpreter, outside any sandbox (the repository's own code: trusted here).

The compared pairs run in paired rounds (benchmarks/rounds.py): the cold build and uv direct
back to back (one round per repository: a cold build cannot be repeated; which goes first
alternates from repository to repository, and the first pays any download uv's cache lacks), and
every ``--runs`` repeat of the judge and bare pytest back to back, the order rotating. Ratios are
medians of the per-round ratios; each repository's rounds are printed with the load average and
the cores other work kept busy (the sandboxes' CPU time counted as this process's own), and an
UNRELIABLE line for every run whose cores other work took.

    .venv/bin/python benchmarks/environments.py
    .venv/bin/python benchmarks/environments.py --repo click --repo markupsafe

Not a pytest module: run it as a script. Needs the package registry.
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
import tomllib
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import (
    Timing,
    adopt_orphans,
    by_tool,
    median_ratio,
    reap_orphans,
    report,
    rotation,
    timed,
)

from truepass.answers import Answer
from truepass.families.repair.adapters.harvest import harvest_commit
from truepass.families.repair.adapters.swebench import instance_to_sample
from truepass.families.repair.adapters.swebench_input import instance_fields
from truepass.families.repair.environments import build
from truepass.families.repair.environments.declared import spec_for
from truepass.families.repair.environments.uvtool import machine_sources, uv_binary
from truepass.families.repair.judge import check_sample, judge
from truepass.judged import JudgeConfig
from truepass.sandbox import Limits
from truepass.suites.gitfiles import snapshot

REPOS = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "real-repos"
CONFIG = JudgeConfig(limits=Limits(timeout_s=300, memory_mb=4096), reruns=0)


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout  # fmt: skip


def uv_direct(checkout: Path, declared: list[str]) -> float:
    """The peer: uv run directly on a checkout (network and uv's cache as for truepass)."""
    env = {**os.environ, **machine_sources()}
    uv = uv_binary()
    started = time.perf_counter()
    if "uv.lock" in declared:
        cmd = [uv, "sync", "--frozen", "--quiet", "--no-default-groups", "--group", "tests"]
        subprocess.run(cmd, cwd=checkout, env=env, check=True, capture_output=True)
    else:
        subprocess.run([uv, "venv", "--quiet", ".venv"], cwd=checkout, env=env, check=True)
        subprocess.run([uv, "pip", "install", "--quiet", "--python", ".venv/bin/python",
                        "-r", declared[0], "-e", "."], cwd=checkout, env=env, check=True,
                       capture_output=True)  # fmt: skip
    return time.perf_counter() - started


def measure(name: str, commit: str, work: Path, runs: int, first: int = 0) -> dict[str, object]:
    """One repository's figures (``first``: the round that decides which of the cold build and
    uv direct goes first); ``timings``: every paired run's window."""
    repo = work / name
    _git(work, "clone", "-q", str(REPOS / f"{name}.bundle"), str(repo))
    base = _git(repo, "rev-parse", f"{commit}^").strip()
    snap = snapshot(repo, base)
    spec = spec_for(snap.files)
    assert spec is not None and spec.problem is None, spec
    os.environ["TRUEPASS_ENVS"] = str(work / "envs")
    build._READY.clear()
    checkout = work / f"{name}-checkout"
    _git(repo, "worktree", "add", "-q", str(checkout), base)
    timings: list[Timing] = []
    built: dict[str, object] = {}
    steps = {
        "cold build": lambda: build.ready(spec, snap.files, progress=lambda _m: None),
        "uv direct": lambda: uv_direct(checkout, spec.declared),
    }
    for step in rotation(list(steps), first):
        built[step], timing = timed(step, first, steps[step], workers=2)
        timings.append(timing)
    env = built["cold build"]
    assert isinstance(env, build.Environment)
    cold = next(t.seconds for t in timings if t.tool == "cold build")
    direct = next(t.seconds for t in timings if t.tool == "uv direct")
    cached = []
    for _ in range(runs):
        build._READY.clear()
        started = time.perf_counter()
        build.ready(spec, snap.files)
        cached.append(time.perf_counter() - started)
    found, instance = harvest_commit(repo, commit, name=f"bench/{name}", runs=1)
    assert instance is not None, found.reason
    sample = instance_to_sample(instance_fields(instance), snap, environment=spec)
    check = check_sample(sample, CONFIG)
    assert check.valid, check.reason
    subprocess.run(["git", "-C", str(checkout), "apply"], input=sample.fix + instance["test_patch"],
                   text=True, check=True)  # type: ignore[operator]  # fmt: skip
    argv = [env.python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            *(sample.test_command or [])[1:]]  # fmt: skip

    def judged() -> float:
        got = judge(sample, Answer(diff=sample.fix), check, CONFIG)
        assert got.verdict.value == "correct", got.details
        return got.duration_s

    def bare() -> float:
        started = time.perf_counter()
        subprocess.run(argv, cwd=checkout, capture_output=True, check=False)
        return time.perf_counter() - started

    pair = {"judge": judged, "bare pytest": bare}
    judge_s: list[float] = []
    for r in range(runs):
        for step in rotation(list(pair), r):
            own, timing = timed(step, r, pair[step])
            judge_s += [own] if step == "judge" else []
            timings.append(replace(timing, seconds=own))  # the judge's or pytest's own
        reap_orphans()
    have = by_tool(timings)
    return {
        "repo": name, "declared": ", ".join(spec.declared), "packages": len(spec.requirements),
        "sdists": len(spec.sdists), "cold_s": cold, "cached_s": statistics.median(cached),
        "uv_direct_s": direct, "size_mib": env.built.size_bytes / 2**20,
        "judge_s": statistics.median(judge_s),
        "bare_pytest_s": statistics.median(t.seconds for t in have["bare pytest"]),
        "cold_over_uv": median_ratio(have["cold build"], have["uv direct"]),
        "judge_over_bare": median_ratio(have["judge"], have["bare pytest"]), "timings": timings,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", action="append", help="a repository of commits.toml (all)")
    parser.add_argument("--runs", type=int, default=3, help="repeats of the warm measurements")
    args = parser.parse_args()
    idle_before = os.getloadavg()[0]
    adopt_orphans()  # the sandboxes' CPU time is this process's own
    commits = tomllib.loads((REPOS / "commits.toml").read_text())
    names = args.repo or list(commits)
    uv_cache = Path(os.environ.get("UV_CACHE_DIR", Path.home() / ".cache" / "uv"))
    print(f"uv's download cache ({uv_cache}): "
          f"{'present' if uv_cache.exists() else 'empty'}; load {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} cores")  # fmt: skip
    rows = []
    with tempfile.TemporaryDirectory(prefix="truepass-envbench-") as tmp:
        for name in names:
            work = Path(tmp) / name
            work.mkdir()
            rows.append(measure(name, commits[name]["fix_commits"][0], work, args.runs, len(rows)))
            shutil.rmtree(work, ignore_errors=True)
    head = ("repo", "from", "pkgs", "sdists", "cold s", "cached", "uv direct s", "cold/uv",
            "MiB", "judge s/attempt", "bare pytest s", "judge/bare")  # fmt: skip
    print(" | ".join(head))
    for r in rows:
        print(" | ".join([
            str(r["repo"]), str(r["declared"]), str(r["packages"]), str(r["sdists"]),
            f"{r['cold_s']:.1f}", f"{r['cached_s'] * 1000:.1f} ms", f"{r['uv_direct_s']:.1f}",
            f"{r['cold_over_uv']:.2f}", f"{r['size_mib']:.0f}",
            f"{r['judge_s']:.2f}", f"{r['bare_pytest_s']:.2f}",
            f"{r['judge_over_bare']:.2f}",
        ]))  # fmt: skip
    print("(cold/uv and judge/bare: medians of the per-round ratios)")
    for r in rows:
        pairs = [("cold build", "uv direct"), ("judge", "bare pytest")]
        print("\n" + "\n".join(report(str(r["repo"]), r["timings"], pairs, idle_before)))  # type: ignore[arg-type]
    sys.stdout.flush()


if __name__ == "__main__":
    main()
