#!/usr/bin/env python3
"""Run the kept tests of a rebuild suite's tasks on their golds more times, and drop the tests
any run fails (``gold-flaky``, ``gold-fail``, ``slow-or-hang``), for tasks made with fewer
verification runs than ``truepass build-rebuild`` now makes (six).

    python scripts/rebuild_reverify.py SUITE_DIR [TASK ...] [--runs 6]

Each task's line of ``SUITE_DIR/suite.jsonl`` is rewritten in place (the others kept, and
processes making tasks of the suite meanwhile are waited for), with the dropped tests in its
``ignore`` and ``generation.kept`` lowered; its coverage is left as it was made. Prints, per
task, the tests dropped and why.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from truepass.families.rebuild.generate import reverify, write_suite
from truepass.families.rebuild.schema import RebuildSample


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", type=Path)
    parser.add_argument("tasks", nargs="*", help="task ids (default: every task)")
    parser.add_argument("--runs", type=int, default=6)
    args = parser.parse_args(argv)
    path = args.suite / "suite.jsonl"
    if not path.is_file():
        print(f"no {path}: give a rebuild suite's directory", file=sys.stderr)
        return 2
    lines = path.read_text(encoding="utf-8").splitlines()
    samples = [RebuildSample.model_validate_json(line) for line in lines if line.strip()]
    unknown = set(args.tasks) - {s.id for s in samples}
    if unknown:
        print(f"no such task in {path}: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    for sample in samples:
        if args.tasks and sample.id not in args.tasks:
            continue
        updated, dropped = reverify(sample, args.runs)
        write_suite(args.suite, updated)
        why = ", ".join(f"{t.split('::')[-1]} ({r})" for t, r in sorted(dropped.items()))
        print(f"{sample.id}: {len(dropped)} dropped in {args.runs} runs"
              f"{': ' + why if why else ''}; kept {updated.generation.kept}",
              flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
