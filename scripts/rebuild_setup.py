"""Fetch and build the instrumented (coverage) golds of the rebuild family into the cache.

Usage: python scripts/rebuild_setup.py [PROGRAM ...]

Without arguments, every program of the default list. For each: its source package and
version, the seconds its coverage build took (0 when it was cached), its instrumented binary
and its lines of code. The cache is $TRUEPASS_REBUILD_CACHE or ~/.cache/truepass/rebuild.
Exits 1 when some program failed (the others are still built).
"""

from __future__ import annotations

import logging
import sys
import time

from truepass.errors import TruepassError
from truepass.families.rebuild.sources import (
    cache_root,
    instrumented_build,
    lines_of_code,
    resolve_gold,
)

DEFAULT = [
    "tac", "nl", "fold", "cut", "expand", "wc", "seq", "tr", "base32", "factor", "rev", "ed",
    "bc",
]  # fmt: skip


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    programs = argv or DEFAULT
    print(f"cache: {cache_root()}")
    failed = 0
    for program in programs:
        start = time.monotonic()
        try:
            gold = resolve_gold(program)
            inst = instrumented_build(gold)
        except TruepassError as exc:
            failed += 1
            print(f"{program}: FAILED: {exc}", file=sys.stderr)
            continue
        seconds = time.monotonic() - start
        loc = lines_of_code(inst.tree, inst.sources)
        print(
            f"{program}\t{gold.source_package}\t{gold.source_version}\t{seconds:.1f}s"
            f"\tloc={loc}\t{inst.binary}",
            flush=True,
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
