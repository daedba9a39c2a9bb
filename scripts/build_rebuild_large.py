#!/usr/bin/env python3
"""Generate the large rebuild suite (issue 27) from ``suites/rebuild-large/tasks.toml``, one
task at a time, resumably: a task already in ``OUT/suite.jsonl`` is skipped (``--redo`` makes it
again), a task that fails is recorded with why and the rest go on. Hours on two cores: run it in
the background and run it again after an interruption.

Each task's figures go to ``OUT/progress.jsonl`` (one line per attempt at a task) and to the
table printed: tests kept, line coverage (or why none), linter findings, the dummy pass rate
before and after filtering, lines of code, runtime dependencies, difficulty bucket, seconds.

Set-up, once per machine: ``make rebuild-large-deps`` (as root, or with sudo) installs every
gold and the build dependencies the oracle needs, from the machine's own package sources.

Usage::

    python scripts/build_rebuild_large.py OUT                 # every task not yet made
    python scripts/build_rebuild_large.py OUT gron rg --redo  # these tasks again
    python scripts/build_rebuild_large.py OUT --max-tests 60  # a quicker, smaller suite
    python scripts/build_rebuild_large.py OUT --summary       # the table of every task in OUT
    python scripts/build_rebuild_large.py OUT --shard 1/2 &   # two processes side by side,
    python scripts/build_rebuild_large.py OUT --shard 2/2 &   # each making every other task
    truepass run --suite OUT --solver oracle --solver noop --out runs/large   # then judge it
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tomllib
import traceback
from collections import Counter
from pathlib import Path

from truepass.families.rebuild.gaps import describe
from truepass.families.rebuild.generate import Settings, build_rebuild
from truepass.families.rebuild.inputs import Seeds, load_seeds
from truepass.families.rebuild.schema import RebuildSample
from truepass.families.rebuild.scoring import difficulty, difficulty_bucket

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "suites/rebuild-large"
SEEDS = (SOURCE / "seeds", ROOT / "suites/rebuild-mini/seeds")
"""Where a task's seeds file is looked for, in order."""
GOAL = 0.86
"""The benchmark's median line coverage: a task below it says why (its missed lines)."""


def seeds_file(name: str) -> Path:
    """The seeds file ``name``: the large suite's own, or else rebuild-mini's."""
    return next((d / name for d in SEEDS if (d / name).is_file()), SEEDS[-1] / name)


def done_ids(out: Path) -> set[str]:
    suite = out / "suite.jsonl"
    if not suite.is_file():
        return set()
    return {json.loads(line)["id"] for line in suite.read_text().splitlines() if line.strip()}


def row(sample: RebuildSample, seconds: float, notes: list[str]) -> dict:
    g = sample.generation
    return {
        "id": sample.id, "language": sample.language, "ok": True,
        "kept": g.kept, "candidates": g.candidates, "coverage": g.coverage,
        "coverage_note": g.coverage_note, "lint": sum(g.lint_findings.values()),
        "dummy_before": g.dummy_pass_before, "dummy_after": g.dummy_pass_after,
        "loc": sample.loc, "dependencies": sample.dependencies,
        "bucket": difficulty_bucket(difficulty(sample.loc, sample.dependencies)),
        "gaps": describe(g.coverage_gaps) if g.coverage_gaps is not None else None,
        "seconds": round(seconds, 1), "notes": notes,
    }  # fmt: skip


def show(r: dict) -> str:
    if not r["ok"]:
        return f"{r['id']}\t{r['language']}\tFAILED: {r['error']}"
    cov = f"{r['coverage']:.1%}" if r["coverage"] is not None else "-"
    pct = [f"{v:.1%}" if v is not None else "-" for v in (r["dummy_before"], r["dummy_after"])]
    return (
        f"{r['id']}\t{r['language']}\t{r['kept']}\t{cov}\t{r['lint']}\t{pct[0]}\t{pct[1]}\t"
        f"{r['loc']}\t{r['dependencies']}\t{r['bucket']}\t{r['seconds']}"
    )


HEADER = (
    "task\tlanguage\tkept\tcoverage\tlint\tdummy before\tdummy after\tloc\tdeps\tbucket\tseconds"
)


def summary(out: Path, order: list[str]) -> str:
    """Every task of ``OUT/suite.jsonl`` (in ``order``, then the rest) as the table's rows, and
    the medians and counts the issue asks for."""
    path = out / "suite.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    samples = [RebuildSample.model_validate_json(x) for x in lines if x.strip()]
    rank = {name: i for i, name in enumerate(order)}
    samples.sort(key=lambda s: rank.get(s.id, len(rank)))
    rows = [row(s, s.generation.seconds, []) for s in samples]
    kept = [r["kept"] for r in rows]
    covs = [r["coverage"] for r in rows if r["coverage"] is not None]
    langs = dict(Counter(r["language"] for r in rows))
    buckets = dict(Counter(r["bucket"] for r in rows))
    made = {s.id for s in samples}
    afters = [r["dummy_after"] for r in rows if r["dummy_after"] is not None]
    tail = (
        f"{len(rows)} tasks {langs} {buckets}; "
        f"median kept {statistics.median(kept) if kept else 0}; "
        f"median coverage {statistics.median(covs) if covs else float('nan'):.1%} "
        f"({len(covs)} measured); median dummy pass after filtering "
        f"{statistics.median(afters) if afters else float('nan'):.1%}; "
        f"missing: {', '.join(n for n in order if n not in made) or 'none'}"
    )
    return "\n".join([HEADER, *(show(r) for r in rows), tail])


def shard(text: str) -> tuple[int, int]:
    """``K/N`` (1 <= K <= N): the K-th of every N tasks."""
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise argparse.ArgumentTypeError(f"{text!r}: give K/N with 1 <= K <= N, e.g. 1/2")
    return int(k), int(n)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("programs", nargs="*")
    parser.add_argument("--redo", action="store_true")
    parser.add_argument("--max-tests", type=int)
    parser.add_argument(
        "--summary", action="store_true", help="print the table of OUT; make nothing"
    )
    parser.add_argument(
        "--shard", type=shard, default=(1, 1), metavar="K/N",
        help="make only the K-th of every N tasks (N processes side by side share one OUT)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    spec = tomllib.loads((SOURCE / "tasks.toml").read_text(encoding="utf-8"))
    settings = Settings(max_tests=args.max_tests or int(spec["max_tests"]), seed=int(spec["seed"]))
    out: Path = args.out
    if args.summary:
        print(summary(out, [t["program"] for t in spec["task"]]))
        return 0
    out.mkdir(parents=True, exist_ok=True)
    if not (out / "suite.toml").is_file():
        (out / "suite.toml").write_text(
            f'name = "{spec["name"]}"\nversion = "{spec["version"]}"\n'
            f'description = "{spec["description"]}"\n',
            encoding="utf-8",
        )
    tasks = [t for t in spec["task"] if not args.programs or t["program"] in args.programs]
    k, n = args.shard
    tasks = tasks[k - 1 :: n]
    have = set() if args.redo else done_ids(out)
    print(HEADER)
    for task in tasks:
        program = task["program"]
        if program in have or (not args.redo and program in done_ids(out)):
            continue  # made before, or meanwhile by another process on OUT
        seeds = load_seeds(seeds_file(task["seeds"])) if "seeds" in task else Seeds()
        started = time.monotonic()
        try:
            built = build_rebuild(program, out, settings=settings, seeds=seeds)
            r = row(built.sample, time.monotonic() - started, built.notes)
        except Exception as exc:  # one task's failure is recorded; the others go on
            traceback.print_exc()
            r = {"id": program, "language": task.get("language", "?"), "ok": False,
                 "error": f"{type(exc).__name__}: {str(exc)[:300]}"}  # fmt: skip
        with (out / "progress.jsonl").open("a") as fh:
            fh.write(json.dumps(r) + "\n")
        print(show(r), flush=True)
        if r.get("gaps") and r["coverage"] < GOAL:
            print(f"  below {GOAL:.0%}: {r['gaps']}", flush=True)
    print(summary(out, [t["program"] for t in spec["task"]]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
