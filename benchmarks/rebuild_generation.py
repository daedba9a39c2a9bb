"""How much running the gold's recording rounds and the verification targets side by side saves
when a rebuild task's tests are generated, in paired rounds.

    .venv/bin/python benchmarks/rebuild_generation.py                      # rev, 100 tests
    .venv/bin/python benchmarks/rebuild_generation.py --gold tac --max-tests 200 --rounds 3

Each round generates the same task twice, back to back (the order rotating): with one sandbox
(``Settings(jobs=1)``: every recording round and every verification target, the gold's runs and
the dummies, one after another, as generation ran before side by side existed) and with
``--jobs`` sandboxes. Black-box generation (no coverage build), the same seed: both make the
same tests, which the script checks. Reported (benchmarks/rounds.py): each round's seconds,
load and the cores other work kept busy, the median of the per-round ratios serial / side by
side, and an UNRELIABLE line when other work took the cores the generation needed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import adopt_orphans, report, run_rounds

from truepass.families.rebuild.generate import Generated, Settings, generate


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gold", default="rev", help="an installed program (default rev)")
    ap.add_argument("--max-tests", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args(argv)
    gold = shutil.which(args.gold)
    if gold is None:
        print(f"{args.gold} is not installed", file=sys.stderr)
        return 2
    adopt_orphans()
    idle = os.getloadavg()[0]
    made: dict[str, list[Generated]] = {"serial": [], "side by side": []}

    def tool(name: str, jobs: int):  # type: ignore[no-untyped-def]
        settings = Settings(max_tests=args.max_tests, jobs=jobs)
        return lambda: made[name].append(generate(args.gold, gold, settings=settings))

    tools = {"serial": tool("serial", 1), "side by side": tool("side by side", args.jobs)}
    runs = run_rounds(tools, args.rounds, workers={"serial": 1, "side by side": args.jobs})
    sources = {g.source for gs in made.values() for g in gs}
    kept = {g.generation.kept for gs in made.values() for g in gs}
    same = len(sources) == 1
    print(f"{args.gold}, {args.max_tests} tests at most, {args.jobs} sandboxes side by side; "
          f"every generation made the same tests: {same} (kept {sorted(kept)})")  # fmt: skip
    for line in report(f"{args.gold} generation", runs, [("serial", "side by side")], idle, 1):
        print(line)
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
