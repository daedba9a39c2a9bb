#!/usr/bin/env python3
"""Write the two cheats of a rebuild suite as patches files, to judge beside ``oracle`` and
``noop`` (issue 27: "noop and both cheats score zero").

    python scripts/rebuild_cheats.py SUITE_DIR OUT_DIR
    truepass run --suite SUITE_DIR --solver oracle --solver noop \\
        --solver replay:OUT_DIR/wrap.jsonl --solver replay:OUT_DIR/copy.jsonl --out RUN

- ``wrap.jsonl``: for each task, a ``compile.sh`` that writes a shell script running the gold
  at its installed path (the judge must flag ``wraps-gold`` and score it zero);
- ``copy.jsonl``: for each task, the gold's own bytes (gzip, then base64, in ``gold.b64.gz``)
  unpacked by ``compile.sh`` into the program: it behaves as the gold and must still score
  zero (``copies-gold``).

The golds are read from the paths the tasks name, on this machine.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import sys
from pathlib import Path


def wrap(program: str, gold: str) -> dict[str, str]:
    script = f"printf '#!/bin/sh\\nexec {gold} \"$@\"\\n' > {program}\nchmod +x {program}\n"
    return {"compile.sh": script}


def copy(program: str, gold: str) -> dict[str, str]:
    packed = base64.b64encode(gzip.compress(Path(gold).read_bytes(), compresslevel=6)).decode()
    # unpacked with python3, not base64(1): the gold is hidden from the build of its own task
    unpack = (
        "import base64, gzip, sys; "
        "sys.stdout.buffer.write(gzip.decompress(base64.b64decode(open('gold.b64.gz').read())))"
    )
    script = f'python3 -c "{unpack}" > {program}\nchmod +x {program}\n'
    return {"compile.sh": script, "gold.b64.gz": packed}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    lines = (args.suite / "suite.jsonl").read_text(encoding="utf-8").splitlines()
    tasks = [json.loads(line) for line in lines if line.strip()]
    args.out.mkdir(parents=True, exist_ok=True)
    for name, make in (("wrap", wrap), ("copy", copy)):
        with (args.out / f"{name}.jsonl").open("w", encoding="utf-8") as fh:
            for task in tasks:
                files = make(task["program"], task["gold"])
                fh.write(json.dumps({"sample_id": task["id"], "files": files}) + "\n")
        print(f"{args.out / f'{name}.jsonl'}: {len(tasks)} tasks")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
