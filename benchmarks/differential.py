"""Measure the differential check (docs/differential.md): recall on overfitting patches with the
hidden tests removed, false alarms on the labelled genuine set, and the cost per attempt beside
its peer, the attempt's own test runs (the ratio printed last), each split into the tuning part
and the held-out part.

    .venv/bin/python benchmarks/differential.py [--suite mini|project] [--split tune|heldout|all]
        [--jobs 2] [--sample ID] [--out /tmp/differential.json]
    .venv/bin/python benchmarks/differential.py --run RUN_DIR --suite SUITE [--jobs 2]

The second form reads a run's results.jsonl instead: its attempts judged ``overfit`` are checked
with the hidden tests removed (recall), those judged ``correct`` with all their tests (how many
the check flags; nobody has read them, so these are not labelled false alarms).

The labelled data is tests/data/differential/ (``overfit.jsonl``: mini's and project's
``known_overfit`` patches, baseline:templates' patches judged ``overfit`` and one read as wrong;
``genuine.jsonl``: reference fixes rewritten by hand in another style, and baseline:templates'
patches judged correct and read as genuine). ``--suite mini`` (the default) or ``--suite
project`` picks the rows; mini's are split into a tuning and a held-out part, project's part is
``project``.
Every patch is judged by the tests alone (the differential check off: its time is the tests'
cost) and checked (its time is the check's cost), back to back: each patch is a paired round
(benchmarks/rounds.py), the order alternating from patch to patch (a check of a patch the tests
then fail is dropped). The cost ratio is also given as the median of the per-round ratios, with
the rounds' load average, the cores other work kept busy (``--jobs`` patches run at once: their
sandboxes' CPU time is this process's own) and an UNRELIABLE line for every run whose cores other
work took.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import sqlite3
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import Timing, adopt_orphans, report, rotation, timed

from truepass.answers import Answer
from truepass.families.repair import differential
from truepass.families.repair.judge import check_sample, judge
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.schema import RepairSample
from truepass.judged import JudgeConfig, Judged
from truepass.patches.apply import unified_diff
from truepass.sandbox import Limits
from truepass.suites.loader import load_suite
from truepass.vocabulary import Verdict

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "differential"
CONFIG = JudgeConfig(limits=Limits(timeout_s=60), reruns=0, differential=False)


def rewrite_diff(sample: RepairSample, function: str, code: str) -> str:
    """The diff replacing the first ``def function`` of the sample's code by ``code``."""
    for path, text in sample.files.items():
        if not path.endswith(".py"):
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and node.name == function:
                lines = text.splitlines(keepends=True)
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
                new = "".join(lines[:start]) + code + "".join(lines[node.end_lineno :])
                return unified_diff({path: text}, {path: new})
    raise LookupError(f"{sample.id}: no function {function}")


def without_hidden(sample: RepairSample) -> RepairSample:
    data = sample.model_dump()
    data["tests"]["hidden"] = {}
    if data["tests"].get("expected"):
        data["tests"]["expected"]["hidden"] = None
    return RepairSample(**data)


def measure(
    row: dict, samples: dict[str, RepairSample], label: str, settings: differential.ProbeSettings,
    index: int = 0, workers: int = 1,
) -> tuple[dict, list[Timing]]:  # fmt: skip
    """One labelled patch judged by the tests and checked, back to back (round ``index``: the
    check goes first in every other round); its row and the two runs' windows."""
    sample = samples[row["sample"]]
    if label == "overfit":
        sample = without_hidden(sample)
        diff = row.get("diff") or sample.known_overfit
    elif row["source"] == "rewrite":
        diff = rewrite_diff(sample, row["function"], row["code"])
    else:
        diff = row["diff"]
    check = check_sample(sample, CONFIG)
    answer = Answer(diff=diff)
    code = apply_to_sample(sample, answer).files
    steps = {
        "tests": lambda: judge(sample, answer, check, CONFIG),
        "check": lambda: differential.check(sample, code, CONFIG.limits, settings),
    }
    got: dict[str, object] = {}
    timings = []
    for name in rotation(list(steps), index):
        got[name], timing = timed(name, index, steps[name], workers)
        timings.append(timing)
    judged, result = got["tests"], got["check"]
    assert isinstance(judged, Judged) and isinstance(result, differential.Outcome)
    tests_s = timings[[t.tool for t in timings].index("tests")].seconds
    out = {**{k: row[k] for k in ("sample", "source", "split")}, "label": label,
           "verdict": judged.verdict.value, "tests_s": round(tests_s, 3)}  # fmt: skip
    if judged.verdict not in differential.CHECKED:
        out["status"] = "not-passing"
        return out, []
    out.update(status=result.status, reason=result.reason, compared=result.compared,
               differing=result.differing, dropped=dict(result.dropped),
               check_s=result.duration_s, flagged=result.differs,
               witness=result.witness.explain() if result.witness else "")  # fmt: skip
    if result.status != "compared":  # skipped: no cost to compare (the cost line's rule)
        return out, []
    own = {"tests": tests_s, "check": result.duration_s}
    return out, [replace(t, seconds=own[t.tool]) for t in timings]


def _rate(rows: list[dict]) -> str:
    n = len(rows)
    k = sum(bool(r.get("flagged")) for r in rows)
    return f"{k}/{n} ({100 * k / n:.0f}%)" if n else "-"


TITLES = {"overfit": "overfit, hidden tests removed", "genuine": "genuine"}


def table(results: list[dict]) -> str:
    """The measurement table (markdown): per labelled set and part, the patches, how many the
    check compared, flagged, skipped and why, and those the tests alone did not pass."""
    lines = [
        "| set | part | patches | flagged / passing the tests | compared | skipped: same code "
        "as the reference | skipped: no function | not passing |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, title in TITLES.items():
        for part in ("tune", "heldout", "project", "all"):
            rows = [r for r in results if r["label"] == label and r["split"] == part]
            if not rows:
                continue
            passing = [r for r in rows if r.get("status") != "not-passing"]
            compared = sum(r.get("status") == "compared" for r in passing)
            same = sum("reference fix's" in r.get("reason", "") for r in passing)
            none = sum("no function" in r.get("reason", "") for r in passing)
            lines.append(
                f"| {title} | {part} | {len(rows)} | {_rate(passing)} | {compared} | {same} | "
                f"{none} | {len(rows) - len(passing)} |"
            )
    checked = [r for r in results if r.get("status") == "compared"]
    if checked:
        tests = statistics.median(r["tests_s"] for r in checked)
        cost = statistics.median(r["check_s"] for r in checked)
        worst = max(r["check_s"] for r in checked)
        lines += [
            "",
            f"cost per checked attempt (median of {len(checked)}): the tests {tests:.2f} s, "
            f"the differential check {cost:.2f} s ({100 * cost / tests:.0f}% of the tests; "
            f"slowest check {worst:.2f} s)",
            f"ratio, the check over its peer (the attempt's own test runs): {cost / tests:.2f}",
        ]
    return "\n".join(lines)


def _records(run: Path) -> list[dict]:
    """A run's records: results.jsonl, or the store of a run still going."""
    if (run / "results.jsonl").exists():
        return [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    with sqlite3.connect(run / "store.sqlite") as db:
        return [json.loads(r) for (r,) in db.execute("SELECT record FROM attempts")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--split", default="tune", choices=("tune", "heldout", "project", "all"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="")
    parser.add_argument("--run", default="", help="a run directory (results.jsonl)")
    parser.add_argument("--sample", default="", help="only the labelled rows of this sample")
    parser.add_argument(
        "--drawn",
        type=int,
        default=differential.ProbeSettings.drawn,
        help="inputs drawn by hypothesis per target (0: none)",
    )
    parser.add_argument(
        "--suite",
        default="mini",
        help="the run's suite, or the labelled rows' suite (mini or project)",
    )
    args = parser.parse_args()
    samples = {s.id: s for s in load_suite(args.suite).samples}
    todo = []
    if args.run:
        for rec in _records(Path(args.run)):
            if rec["verdict"] in ("overfit", "correct") and rec["sample_id"] in samples:
                label = "overfit" if rec["verdict"] == "overfit" else "genuine"
                row = {"sample": rec["sample_id"], "source": "run", "split": "all",
                       "diff": rec["patch"]}  # fmt: skip
                todo.append((row, label))
    for label in () if args.run else ("overfit", "genuine"):
        for line in (DATA / f"{label}.jsonl").read_text().splitlines():
            row = json.loads(line)
            if args.sample and row["sample"] != args.sample:
                continue
            if row.get("suite", "mini") == args.suite and args.split in ("all", row["split"]):
                todo.append((row, label))
    idle_before = os.getloadavg()[0]
    adopt_orphans()  # the sandboxes' CPU time is this process's own
    with ThreadPoolExecutor(args.jobs) as pool:
        settings = differential.ProbeSettings(drawn=args.drawn)
        done = list(pool.map(
            lambda it: measure(it[1][0], samples, it[1][1], settings, it[0], args.jobs),
            enumerate(todo),
        ))  # fmt: skip
    results = [row for row, _ in done]
    timings = [t for _, ts in done for t in ts]
    for r in results:
        mark = "FLAG" if r.get("flagged") else "    "
        print(
            f"{mark} {r['label']:8} {r['split']:7} {r['sample']:32} {r['source']:20} "
            f"{r['verdict']:9} {r.get('status', '')} {r.get('reason', '')} "
            f"{r.get('witness', '')[:160]}"
        )
    print()
    print(table(results))
    if timings:
        print("\n" + "\n".join(report("checked patches", timings, [("check", "tests")],
                                       idle_before)))  # fmt: skip
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))
    return 0 if all(r["verdict"] != Verdict.INFRA_ERROR for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
