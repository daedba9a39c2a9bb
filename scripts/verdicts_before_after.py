#!/usr/bin/env python3
"""Judge the same suites with two source trees and count the verdicts that differ.

    .venv/bin/python scripts/verdicts_before_after.py --before /tmp/base/src
    .venv/bin/python scripts/verdicts_before_after.py --before /tmp/base/src --only mini,project

A change meant to make truepass faster (issue 29) must not change what it decides. Each suite
is run with ``truepass run --suite SUITE --solver ... --out DIR`` once with this checkout's
``src`` and once with ``--before`` (the other tree's ``src``, put first on ``PYTHONPATH``),
each with a check cache of its own, so neither tree reads the other's results. Every attempt,
keyed by (sample, solver, attempt), is compared on its verdict and its flags;
the table gives attempts and differences per suite, and every difference is printed.
Exit status 1 when any differs, 2 when a run failed.

The suites: the bundled ``mini`` and ``project`` (the template baseline, the oracle and noop),
QuixBugs in Python and HumanEvalFix from ``../shared/benchmarks`` (the same three solvers) and
the bundled HumanEval (oracle and noop: no codegen baseline exists).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "benchmarks"
REPAIR = ("baseline:templates", "oracle", "noop")


@dataclass(frozen=True)
class Case:
    name: str
    suite: str
    solvers: tuple[str, ...]


CASES = (
    Case("mini", "mini", REPAIR),
    Case("project", "project", REPAIR),
    Case("quixbugs", f"quixbugs:{SHARED / 'quixbugs-python'}", REPAIR),
    Case("humanevalfix", f"humanevalfix:{SHARED / 'humanevalpack-python'}", REPAIR),
    Case("humaneval", "humaneval", ("oracle", "noop")),
)

Key = tuple[str, str, int]


def run(tree: Path, case: Case, out: Path) -> tuple[dict[Key, tuple[str, ...]], float]:
    """One tree's run of ``case``: (sample, solver, attempt) -> (verdict, flags)."""
    cmd = [str(Path(sys.executable).parent / "truepass"), "run", "--suite", case.suite,
           "--out", str(out / "run"), "--check-cache", str(out / "checks.sqlite")]  # fmt: skip
    for solver in case.solvers:
        cmd += ["--solver", solver]
    env = dict(os.environ, PYTHONPATH=str(tree))
    started = time.monotonic()
    log = out / "log.txt"
    with log.open("w") as fh:
        done = subprocess.run(cmd, env=env, stdout=fh, stderr=subprocess.STDOUT, check=False)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"{case.name} with {tree}: exit {done.returncode}, see {log}")
    got: dict[Key, tuple[str, ...]] = {}
    for line in (out / "run" / "results.jsonl").read_text().splitlines():
        rec = json.loads(line)
        key = (rec["sample_id"], rec["solver"], int(rec.get("attempt", 0)))
        got[key] = (rec["verdict"], ",".join(sorted(rec.get("flags") or [])))
    return got, seconds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="the other tree's src directory")
    ap.add_argument("--only", help="comma-separated subset of " + ",".join(c.name for c in CASES))
    ap.add_argument("--workdir", type=Path, help="keep the runs here (default: a temp dir)")
    args = ap.parse_args(argv)
    chosen = [c for c in CASES if not args.only or c.name in args.only.split(",")]
    work = args.workdir or Path(tempfile.mkdtemp(prefix="verdicts_before_after-"))
    trees = {"before": args.before.resolve(), "after": ROOT / "src"}
    print(f"work directory: {work}; before {trees['before']}, after {trees['after']}")
    rows, status = [], 0
    for case in chosen:
        results = {}
        for name, tree in trees.items():
            out = work / case.name / name
            out.mkdir(parents=True, exist_ok=True)
            try:
                results[name] = run(tree, case, out)
            except RuntimeError as exc:
                print(f"FAILED: {exc}")
                status = 2
                break
        else:
            (before, t_before), (after, t_after) = results["before"], results["after"]
            keys = sorted(before.keys() | after.keys())
            diffs = [k for k in keys if before.get(k) != after.get(k)]
            for k in diffs:
                print(f"  {case.name} {k}: before {before.get(k)}, after {after.get(k)}")
            rows.append((case.name, len(keys), len(diffs), t_before, t_after))
            status = max(status, 1 if diffs else 0)
            print(f"{case.name}: {len(keys)} attempts, {len(diffs)} differ "
                  f"(before {t_before:.0f} s, after {t_after:.0f} s)", flush=True)  # fmt: skip
    print("\n| suite | attempts | verdicts or flags that differ | before s | after s |")
    print("|---|---:|---:|---:|---:|")
    for name, n, d, tb, ta in rows:
        print(f"| {name} | {n} | {d} | {tb:.0f} | {ta:.0f} |")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
