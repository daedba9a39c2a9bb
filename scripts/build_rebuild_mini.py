#!/usr/bin/env python3
"""Write the bundled ``rebuild-mini`` suite (``src/truepass/suites/bundled/rebuild-mini``) with
``truepass build-rebuild`` over the programs and seeds of ``suites/rebuild-mini/``.

The golds are this machine's Debian programs (``make test`` installs them); their source
packages are fetched and built with coverage into the rebuild cache on first use. The tests are
the golds' recorded behaviour on inputs from their documentation, our seeds and mutations;
the docs themselves are read from the machine when a task runs and are not bundled.

Usage::

    python scripts/build_rebuild_mini.py              # write the suite, print a table per task
    python scripts/build_rebuild_mini.py rev ed       # rebuild only these tasks' lines
"""

from __future__ import annotations

import sys
import time
import tomllib
from pathlib import Path

from truepass.families.rebuild.generate import Settings, build_rebuild
from truepass.families.rebuild.inputs import Seeds, load_seeds

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "suites/rebuild-mini"
OUT = ROOT / "src/truepass/suites/bundled/rebuild-mini"


def main(argv: list[str]) -> int:
    spec = tomllib.loads((SOURCE / "tasks.toml").read_text(encoding="utf-8"))
    settings = Settings(max_tests=int(spec["max_tests"]), seed=int(spec["seed"]))
    tasks = [t for t in spec["task"] if not argv or t["program"] in argv]
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "suite.toml").write_text(
        f'name = "{spec["name"]}"\nversion = "{spec["version"]}"\n'
        f'description = "{spec["description"]}"\n',
        encoding="utf-8",
    )
    print("task\ttests\tignored\tcoverage\tlint\tdummy before\tdummy after\tloc\tbucket\tseconds")
    started = time.monotonic()
    for task in tasks:
        seeds = load_seeds(SOURCE / "seeds" / task["seeds"]) if "seeds" in task else Seeds()
        built = build_rebuild(task["program"], OUT, settings=settings, seeds=seeds)
        s, g = built.sample, built.sample.generation
        coverage = f"{g.coverage:.1%}" if g.coverage is not None else "-"
        lint = sum(g.lint_findings.values())
        before = f"{g.dummy_pass_before:.1%}" if g.dummy_pass_before is not None else "-"
        after = f"{g.dummy_pass_after:.1%}" if g.dummy_pass_after is not None else "-"
        print(
            f"{s.id}\t{g.kept}\t{len(s.ignore)}\t{coverage}\t{lint}\t{before}\t{after}\t{s.loc}"
            f"\t{s.bucket} ({s.difficulty:.2f})\t{g.seconds:.1f}",
            flush=True,
        )
        for note in built.notes:
            print(f"  note: {note}", flush=True)
    print(f"total {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
