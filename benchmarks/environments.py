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
from pathlib import Path

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


def measure(name: str, commit: str, work: Path, runs: int) -> dict[str, object]:
    repo = work / name
    _git(work, "clone", "-q", str(REPOS / f"{name}.bundle"), str(repo))
    base = _git(repo, "rev-parse", f"{commit}^").strip()
    snap = snapshot(repo, base)
    spec = spec_for(snap.files)
    assert spec is not None and spec.problem is None, spec
    os.environ["TRUEPASS_ENVS"] = str(work / "envs")
    build._READY.clear()
    started = time.perf_counter()
    env = build.ready(spec, snap.files, progress=lambda _m: None)
    cold = time.perf_counter() - started
    cached = []
    for _ in range(runs):
        build._READY.clear()
        started = time.perf_counter()
        build.ready(spec, snap.files)
        cached.append(time.perf_counter() - started)
    checkout = work / f"{name}-checkout"
    _git(repo, "worktree", "add", "-q", str(checkout), base)
    direct = uv_direct(checkout, spec.declared)
    found, instance = harvest_commit(repo, commit, name=f"bench/{name}", runs=1)
    assert instance is not None, found.reason
    sample = instance_to_sample(instance_fields(instance), snap, environment=spec)
    check = check_sample(sample, CONFIG)
    assert check.valid, check.reason
    judged = []
    for _ in range(runs):
        got = judge(sample, Answer(diff=sample.fix), check, CONFIG)
        assert got.verdict.value == "correct", got.details
        judged.append(got.duration_s)
    subprocess.run(["git", "-C", str(checkout), "apply"], input=sample.fix + instance["test_patch"],
                   text=True, check=True)  # type: ignore[operator]  # fmt: skip
    argv = [env.python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            *(sample.test_command or [])[1:]]  # fmt: skip
    bare = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, cwd=checkout, capture_output=True, check=False)
        bare.append(time.perf_counter() - started)
    return {
        "repo": name, "declared": ", ".join(spec.declared), "packages": len(spec.requirements),
        "sdists": len(spec.sdists), "cold_s": cold, "cached_s": statistics.median(cached),
        "uv_direct_s": direct, "size_mib": env.built.size_bytes / 2**20,
        "judge_s": statistics.median(judged), "bare_pytest_s": statistics.median(bare),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", action="append", help="a repository of commits.toml (all)")
    parser.add_argument("--runs", type=int, default=3, help="repeats of the warm measurements")
    args = parser.parse_args()
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
            rows.append(measure(name, commits[name]["fix_commits"][0], work, args.runs))
            shutil.rmtree(work, ignore_errors=True)
    head = ("repo", "from", "pkgs", "sdists", "cold s", "cached", "uv direct s", "cold/uv",
            "MiB", "judge s/attempt", "bare pytest s", "judge/bare")  # fmt: skip
    print(" | ".join(head))
    for r in rows:
        print(" | ".join([
            str(r["repo"]), str(r["declared"]), str(r["packages"]), str(r["sdists"]),
            f"{r['cold_s']:.1f}", f"{r['cached_s'] * 1000:.1f} ms", f"{r['uv_direct_s']:.1f}",
            f"{r['cold_s'] / r['uv_direct_s']:.2f}", f"{r['size_mib']:.0f}",
            f"{r['judge_s']:.2f}", f"{r['bare_pytest_s']:.2f}",
            f"{r['judge_s'] / r['bare_pytest_s']:.2f}",
        ]))  # fmt: skip
    sys.stdout.flush()


if __name__ == "__main__":
    main()
