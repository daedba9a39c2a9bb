"""Test selection on and off: time per judged attempt, and whether any verdict differs.

Judges the same attempts (the ``baseline:templates`` answer, the reference fix and the unchanged
code of every sample) twice in one process, with ``test_selection`` forced off and on (the order
alternates from attempt to attempt), on the same sample checks. The check of each sample measures
the coverage map of the buggy code once (timed apart: it is paid once per sample per run
directory, not per attempt). Prints the median and total judge time per attempt, for all attempts
and for those that reach the hidden phase (the only ones selection can change), the ratio, how
the selected phases ran, and every attempt whose verdict or hidden outcome differs (there must be
none). Each attempt is a paired round (benchmarks/rounds.py): judged off and on back to back, the
order alternating; the ratio of all judged attempts is also given as the median of the per-round
ratios, with the rounds' load average, the cores other work kept busy (the sandboxes' CPU time
counted as this process's own) and an UNRELIABLE line for every judgement whose cores other work
took.

    .venv/bin/python benchmarks/test_selection.py                 # project when bundled, else mini
    .venv/bin/python benchmarks/test_selection.py --suite mini --limit 10

The templates' answers are cached in ``--answers`` (JSONL), so a second run only judges.
Not a pytest module: run it as a script.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import Timing, adopt_orphans, reap_orphans, report, rotation, timed

from truepass.answers import Answer
from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.family import RepairFamily
from truepass.families.repair.judge import check_sample, judge
from truepass.families.repair.schema import RepairSample
from truepass.judged import JudgeConfig, Judged
from truepass.sandbox import Limits
from truepass.solvers import make_solvers
from truepass.solvers.base import SolveContext
from truepass.suites.loader import bundled_suites, load_suite


@dataclass
class Pair:
    sample_id: str
    solver: str
    off: Judged
    on: Judged

    @property
    def differs(self) -> bool:
        a, b = self.off.hidden, self.on.hidden
        return self.off.verdict != self.on.verdict or (
            a is not None and b is not None and a.ok != b.ok
        )


def _answers(
    samples: list[RepairSample], checks: dict[str, RepairCheck], config: JudgeConfig, path: Path
) -> list[tuple[str, str, Answer]]:
    """(sample id, solver, answer) of oracle, noop and baseline:templates; templates cached."""
    cached: dict[str, dict[str, object]] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            cached[row["sample_id"]] = row
    (templates,) = make_solvers(["baseline:templates"], {s.id for s in samples})
    out = []
    for n, s in enumerate(samples, 1):
        out.append((s.id, "oracle", Answer(diff=s.fix)))
        out.append((s.id, "noop", Answer(diff="")))
        if not checks[s.id].valid:
            continue
        if s.id not in cached:
            t0 = time.monotonic()
            ans = templates.solve(s, 0, SolveContext(RepairFamily(), config, checks[s.id]))
            row = {
                "sample_id": s.id,
                "diff": ans.diff if ans else None,
                "files": ans.files if ans else None,
            }
            cached[s.id] = row
            with path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
            print(
                f"  templates {n}/{len(samples)} {s.id}: {time.monotonic() - t0:.1f} s",
                file=sys.stderr,
            )
        row = cached[s.id]
        if row["diff"] is None and row["files"] is None:
            continue  # no candidate: judged no-patch either way, nothing to compare
        out.append((s.id, "baseline:templates", Answer(diff=row["diff"], files=row["files"])))  # type: ignore[arg-type]
    return out


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    default = "project" if "project" in bundled_suites() else "mini"
    ap.add_argument("--suite", default=default)
    ap.add_argument("--limit", type=int, default=None, help="first N samples")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--reruns", type=int, default=1, help="as in a run (default 1)")
    ap.add_argument("--answers", type=Path, default=None, help="templates answers cache (JSONL)")
    args = ap.parse_args()
    idle_before = os.getloadavg()[0]
    adopt_orphans()  # the sandboxes' CPU time is this process's own

    suite = load_suite(args.suite)
    samples = [s for s in suite.samples if isinstance(s, RepairSample)][: args.limit]
    limits = Limits(timeout_s=args.timeout)
    off = JudgeConfig(limits=limits, reruns=args.reruns, test_selection=False)
    on = JudgeConfig(limits=limits, reruns=args.reruns, test_selection=True)
    answers_path = (
        args.answers
        or Path("runs")
        / "bench-selection"
        / f"{suite.name}-{suite.content_hash[:12]}-templates.jsonl"
    )
    answers_path.parent.mkdir(parents=True, exist_ok=True)

    print(
        f"suite {suite.name}: {len(samples)} samples; checking (with coverage maps) ...",
        file=sys.stderr,
    )
    checks: dict[str, RepairCheck] = {}
    plain_s, with_map_s = [], []
    for s in samples:
        t0 = time.monotonic()
        checks[s.id] = check_sample(s, off)
        t1 = time.monotonic()
        checks[s.id] = check_sample(s, on)  # the same check plus one hidden run with coverage
        plain_s.append(t1 - t0)
        with_map_s.append(time.monotonic() - t1)
    hidden_sizes = [len(c.hidden_ids) for c in checks.values() if c.valid]
    answers = _answers(samples, checks, off, answers_path)

    print(f"judging {len(answers)} attempts twice ...", file=sys.stderr)
    pairs: list[Pair] = []
    timings: list[Timing] = []
    for i, (sid, solver, answer) in enumerate(answers):
        sample, check = next(s for s in samples if s.id == sid), checks[sid]
        got: dict[str, Judged] = {}
        for name, config in rotation([("off", off), ("on", on)], i):
            run = lambda c=config, s=sample, a=answer, k=check: judge(s, a, k, c)  # noqa: E731
            got[name], timing = timed(name, i, run)
            timings.append(replace(timing, seconds=got[name].duration_s))  # the judge's own
        reap_orphans()
        pairs.append(Pair(sid, solver, got["off"], got["on"]))

    def times(sel: list[Pair], attr: str) -> list[float]:
        return [getattr(p, attr).duration_s for p in sel]

    hidden = [p for p in pairs if p.off.hidden is not None]
    valid = sum(c.valid for c in checks.values())
    sizes = [float(x) for x in hidden_sizes]
    extra = [b - a for a, b in zip(plain_s, with_map_s, strict=True)]
    print(
        f"\nsuite {suite.name}: {len(samples)} samples, {valid} valid; hidden tests per valid "
        f"sample: median {_median(sizes):.0f}, max {max(hidden_sizes, default=0)}"
    )
    print(
        f"sample check: median {_median(plain_s):.2f} s; the coverage map adds a median "
        f"{_median(extra):+.2f} s ({sum(extra):+.1f} s in all), once per sample"
    )
    head = ("attempts", "n", "median off", "median on", "ratio", "total off", "total on")
    print("\n{:<28}{:>5}{:>12}{:>11}{:>7}{:>11}{:>10}".format(*head))
    rows = [("all judged", pairs), ("reaching the hidden phase", hidden)]
    for verdict in sorted({p.off.verdict.value for p in hidden}):
        rows.append(
            (f"  of which {verdict} (off)", [p for p in hidden if p.off.verdict == verdict])
        )
    for label, sel in rows:
        a, b = times(sel, "off"), times(sel, "on")
        ratio = _median(b) / _median(a) if a and _median(a) else float("nan")
        print(
            f"{label:<28}{len(sel):>5}{_median(a):>11.2f}s{_median(b):>10.2f}s{ratio:>7.2f}"
            f"{sum(a):>10.1f}s{sum(b):>9.1f}s"
        )
    print("\n" + "\n".join(report("attempts", timings, [("on", "off")], idle_before)))
    print(f"\nhidden phases by solver: {dict(Counter(p.solver for p in hidden))}")
    records = [p.on.hidden.selection for p in hidden if p.on.hidden and p.on.hidden.selection]
    first = [r for r in records if not r.fallback]
    stopped = [r for r in first if r.stopped_early]
    print(
        f"selection: {len(first)} phases ran related tests first ({len(stopped)} stopped early), "
        f"{len(records) - len(first)} kept the tests' own order"
    )
    if first:
        share = _median([r.related / r.total for r in first])
        print(f"  related tests: a median {share:.0%} of the hidden tests")
    if stopped:
        share = _median([r.ran / r.total for r in stopped])
        print(f"  stopped phases ran a median {share:.0%} of the hidden tests")
    for why, n in Counter(r.fallback for r in records if r.fallback).most_common():
        print(f"  own order x{n}: {why}")
    print(f"verdicts (off): {dict(Counter(p.off.verdict.value for p in pairs))}")
    differing = [p for p in pairs if p.differs]
    print(f"\ndiffering verdicts: {len(differing)}")
    for p in differing:
        sel = p.on.hidden.selection if p.on.hidden else None
        print(f"  {p.sample_id} {p.solver}: off {p.off.verdict.value} ({p.off.details.strip()})")
        print(f"    on {p.on.verdict.value} ({p.on.details.strip()}); selection {sel}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
