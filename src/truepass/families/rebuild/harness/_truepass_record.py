"""Run a batch of cases on a program inside the sandbox and report what it did through the
result channel (``truepass build-rebuild`` records the gold's behaviour with it, in the same
sandbox the tests will run in). Standard library and the ``program`` fixture's runner only.

Usage (in the sandbox): ``python3 -P -m _truepass_record CASES.json PROGRAM NAME``; each case is
``{"args": [...], "stdin": B64, "files": {path: B64}, "env": {...}, "timeout": seconds}``; each
result line is ``{"index": i, "stdout": B64, "stderr": B64, "returncode": n, "files": {...}}``
or ``{"index": i, "timeout": true}``.
"""

from __future__ import annotations

import base64
import json
import os
import sys

import pytest
from _truepass_rebuild import Program

_FD = int(os.environ.pop("TRUEPASS_CHANNEL_FD", "-1"))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def main(argv: list[str]) -> int:
    with open(argv[0], encoding="utf-8") as fh:
        cases = json.load(fh)
    program = Program(argv[1], argv[2])
    channel = os.fdopen(_FD, "w", encoding="utf-8") if _FD >= 0 else sys.stdout
    for index, case in enumerate(cases):
        try:
            run = program(
                case["args"],
                stdin=base64.b64decode(case["stdin"]),
                files={k: base64.b64decode(v) for k, v in case["files"].items()},
                env=case["env"],
                timeout=case["timeout"],
            )
        except pytest.fail.Exception:
            channel.write(json.dumps({"index": index, "timeout": True}) + "\n")
            continue
        result = {
            "index": index,
            "stdout": _b64(run.stdout),
            "stderr": _b64(run.stderr),
            "returncode": run.returncode,
            "files": {k: _b64(v) for k, v in run.files.items()},
        }
        channel.write(json.dumps(result) + "\n")
    channel.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
