#!/usr/bin/env python3
"""The referees of ``rebuild-mini``, over every task, in one run: ``oracle`` (the original source
package built by its own build system in the sandbox) must resolve every task, ``noop`` (a
program that prints nothing) and two cheats must score zero: a wrapper that calls the gold, and a
copy of the gold's bytes (hex-encoded in the submission, decoded by its compile.sh).

Usage::

    python scripts/check_rebuild_mini.py [--out DIR] [TASK ...]

Prints one row per task (verdict and pass rate per solver, the cheats' flags), then per solver
% resolved, % almost and the mean pass rate. The run is resumable (same --out). Exits 1 when a
referee disagrees (oracle not resolved, or noop or a cheat above zero).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from truepass.judged import JudgeConfig
from truepass.runner import run
from truepass.sandbox import Limits
from truepass.solvers import make_solvers
from truepass.suites.loader import load_suite, write_suite_dir


def cheats(samples: list, out: Path) -> tuple[Path, Path]:  # type: ignore[type-arg]
    """Patches files of the two cheats, one answer per task."""
    wrap, copy = out / "wrap-gold.jsonl", out / "copy-gold.jsonl"
    with wrap.open("w", encoding="utf-8") as w, copy.open("w", encoding="utf-8") as c:
        for s in samples:
            script = f"printf '#!/bin/sh\\nexec {s.gold} \"$@\"\\n' > {s.program}\n"
            script += f"chmod +x {s.program}\n"
            w.write(json.dumps({"sample_id": s.id, "files": {"compile.sh": script}}) + "\n")
            hexed = Path(s.gold).read_bytes().hex()
            build = f"xxd -r -p gold.hex > {s.program}\nchmod +x {s.program}\n"
            files = {"compile.sh": build, "gold.hex": hexed}
            c.write(json.dumps({"sample_id": s.id, "files": files}) + "\n")
    return wrap, copy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("runs/rebuild-mini-referees"))
    parser.add_argument("tasks", nargs="*")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    suite = load_suite("rebuild-mini")
    if args.tasks:
        chosen = [s for s in suite.samples if s.id in args.tasks]
        suite = dataclasses.replace(suite, samples=chosen)
        write_suite_dir(suite, args.out / "suite")
        suite = load_suite(str(args.out / "suite"))
    wrap, copy = cheats(list(suite.samples), args.out)
    solvers = make_solvers(["oracle", "noop", f"replay:{wrap}", f"replay:{copy}"])
    config = JudgeConfig(limits=Limits(timeout_s=60), reruns=0)
    run(suite, solvers, args.out / "run", config=config)
    records = [json.loads(x) for x in (args.out / "run/results.jsonl").read_text().splitlines()]
    names = [s.name for s in solvers]
    short = {names[0]: "oracle", names[1]: "noop", names[2]: "wrap", names[3]: "copy"}
    table: dict[str, dict[str, dict]] = {}  # type: ignore[type-arg]
    for r in records:
        table.setdefault(r["sample_id"], {})[short[r["solver"]]] = r
    print("task\tbucket\toracle\tnoop\twrap\tcopy")
    bad = 0
    for s in suite.samples:
        row = table.get(s.id, {})
        cells = []
        for name in ("oracle", "noop", "wrap", "copy"):
            r = row.get(name)
            if r is None:
                cells.append("-")
                continue
            rate = r["scores"].get("pass_rate", 0.0)
            flags = ",".join(r["flags"])
            cells.append(f"{r['verdict']} {rate:.2f}" + (f" [{flags}]" if flags else ""))
            ok = rate == 1.0 and not r["flags"] if name == "oracle" else rate == 0.0
            bad += not ok
        print(f"{s.id}\t{s.bucket}\t" + "\t".join(cells))
    summary = json.loads((args.out / "run/summary.json").read_text())
    for entry in summary["solvers"]:
        m = entry["metrics"]
        print(
            f"{short[entry['solver']]}: resolved {m.get('resolved', 0):.1%}, almost "
            f"{m.get('almost', 0):.1%}, pass rate {m.get('pass_rate', 0):.1%}"
        )
    print("referees agree" if not bad else f"{bad} referee results disagree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
