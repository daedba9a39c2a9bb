#!/usr/bin/env python3
"""Say, task by task, why a rebuild suite's coverage stays below a goal (issue 27: "or the note
shows, task by task, why a task stays below").

    python scripts/rebuild_coverage_gaps.py SUITE_DIR [--below 0.86] [--top 5]

For every task whose tests cover less than ``--below`` of the gold's lines, it prints the
missed lines by kind (in functions no test runs, error handling, other) and the functions that
miss the most, from what ``truepass build-rebuild`` recorded in the task
(``generation.coverage_gaps``, :mod:`truepass.families.rebuild.gaps`). A task made without
coverage says why (its ``coverage_note``); one made before gaps were recorded says so.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from truepass.families.rebuild.gaps import describe, kinds
from truepass.families.rebuild.schema import CoverageGaps, RebuildSample


def report(sample: RebuildSample, top: int) -> str:
    g = sample.generation
    if g.coverage is None:
        why = g.coverage_note or "coverage was not measured"
        return f"{sample.id}\t{sample.language}\t-\t{why}"
    if g.coverage_gaps is None:
        return f"{sample.id}\t{sample.language}\t{g.coverage:.1%}\tgaps not recorded (made " \
               "before truepass recorded them: make the task again to see them)"  # fmt: skip
    return f"{sample.id}\t{sample.language}\t{g.coverage:.1%}\t{describe(g.coverage_gaps, top)}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", type=Path)
    parser.add_argument("--below", type=float, default=0.86)
    parser.add_argument("--top", type=int, default=5, help="functions shown per task")
    args = parser.parse_args(argv)
    path = args.suite / "suite.jsonl"
    if not path.is_file():
        print(f"no {path}: give a rebuild suite's directory", file=sys.stderr)
        return 2
    below = 0
    gaps: dict[str, CoverageGaps] = {}
    print("task\tlanguage\tcoverage\twhy")
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            sample = RebuildSample.model_validate_json(line)
        except ValueError as exc:
            print(f"{path}:{number}: not a rebuild task ({str(exc).splitlines()[0]})",
                  file=sys.stderr)  # fmt: skip
            return 2
        if (cov := sample.generation.coverage) is not None and cov >= args.below:
            continue
        below += 1
        print(report(sample, args.top))
        if sample.generation.coverage_gaps is not None:
            gaps[sample.id] = sample.generation.coverage_gaps
    print(f"{below} task(s) below {args.below:.0%} or without coverage")
    if gaps:
        total = kinds(gaps)
        print(
            f"their missed lines: {total['missed']}: {total['filtered']} run only by dropped "
            f"tests, {total['unrun_functions']} in functions no test runs, "
            f"{total['error_handling']} handling errors, {total['other']} other"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
