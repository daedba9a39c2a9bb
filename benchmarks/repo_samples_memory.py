"""Memory and disk of many repository-level samples of one repository (issue 26 item 3).

Builds SWE-bench instances from the last N first-parent commits of a repository bundle that
change both the library and its tests (each commit: base = its parent, patch = its change outside
the tests, test_patch = its change to them; FAIL_TO_PASS names one test module: loading does not
run tests), then loads them with the SWE-bench adapter and writes them as a suite
(``truepass import swebench``). Prints the resident memory the load added, the suite file's size,
and both beside the repository's own size (its text files at one commit) times N: the peer is
"N copies of the repository".

    .venv/bin/python benchmarks/repo_samples_memory.py --repo click -n 100

Not a pytest module: run it as a script.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from truepass.families.repair.adapters.harvest import history, split_commit
from truepass.families.repair.adapters.swebench import load_swebench
from truepass.suites.gitfiles import snapshot

REPOS = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "real-repos"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout  # fmt: skip


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024


def instances(repo: Path, name: str, n: int) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    log = ["log", "--first-parent", "--no-merges", "--format=%H", history(repo)]
    for sha in _git(repo, *log).split():
        if len(out) == n:
            break
        try:
            fix, tests, modules = split_commit(_git(repo, "diff", "--no-renames", f"{sha}^", sha))
        except Exception:
            continue
        if not fix.strip() or not modules or "GIT binary patch" in fix + tests:
            continue
        out.append({
            "instance_id": f"{name.replace('/', '__')}-{sha[:12]}", "repo": name,
            "base_commit": _git(repo, "rev-parse", f"{sha}^").strip(), "patch": fix,
            "test_patch": tests, "problem_statement": f"commit {sha}",
            "FAIL_TO_PASS": [f"{modules[0]}::test_x"], "PASS_TO_PASS": [],
        })  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", default="click")
    parser.add_argument("-n", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="truepass-memory-") as tmp:
        root = Path(tmp)
        repo = root / "repos" / f"pallets__{args.repo}"
        subprocess.run(["git", "clone", "-q", str(REPOS / f"{args.repo}.bundle"), str(repo)],
                       check=True)  # fmt: skip
        found = instances(repo, f"pallets/{args.repo}", args.n)
        path = root / "instances.jsonl"
        path.write_text("".join(json.dumps(i) + "\n" for i in found))
        one = snapshot(repo, str(found[0]["base_commit"]))
        repo_mib = sum(len(t.encode()) for t in one.files.values()) / 2**20
        gc.collect()
        before = _rss_mib()
        started = time.perf_counter()
        samples, _ = load_swebench(path, environments=False)
        took = time.perf_counter() - started
        gc.collect()
        added = _rss_mib() - before
        suite = root / "suite"
        cli = [sys.executable, "-m", "truepass.cli"]
        subprocess.run([*cli, "import", "swebench", str(path), "--out", str(suite)],
                       check=True, capture_output=True)  # fmt: skip
        jsonl = sum(p.stat().st_size for p in suite.rglob("*.jsonl")) / 2**20
        n = len(samples)
        print(f"{n} instances of {args.repo} (commits back to {found[-1]['base_commit'][:12]}); "
              f"the repository's text files at one commit: {repo_mib:.1f} MiB")  # fmt: skip
        print("what | truepass | N copies of the repository | ratio")
        print(f"resident memory added by the load (MiB) | {added:.1f} | {n * repo_mib:.1f} | "
              f"{added / (n * repo_mib):.3f}")  # fmt: skip
        print(f"suite.jsonl written by `truepass import` (MiB) | {jsonl:.1f} | {n * repo_mib:.1f}"
              f" | {jsonl / (n * repo_mib):.3f}")  # fmt: skip
        print(f"load time: {took:.1f} s")
        del samples


if __name__ == "__main__":
    main()
