"""benchmarks/fork_floor.py, the lower bound exec_vs_peers.py prints, must really check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "fork_floor.py"

PROBLEM = {
    "prompt": "def add(a, b):\n",
    "test": "def check(candidate):\n"
    "    assert candidate(2, 3) == 5\n"
    "    assert candidate(0, 0) == 0\n",
    "entry_point": "add",
}
COMPLETIONS = {
    "right": "    return a + b\n",
    "wrong": "    return a * b\n",
    "raises": "    raise ValueError('no')\n",
    "exits": "    raise SystemExit(0)\n",
}


def test_fork_floor_passes_only_the_right_completion(tmp_path: Path) -> None:
    problems = tmp_path / "problems.jsonl"
    samples = tmp_path / "samples.jsonl"
    out = tmp_path / "out.jsonl"
    problems.write_text("".join(json.dumps({"task_id": k, **PROBLEM}) + "\n" for k in COMPLETIONS))
    samples.write_text(
        "".join(json.dumps({"task_id": k, "completion": c}) + "\n" for k, c in COMPLETIONS.items())
    )
    subprocess.run(
        [sys.executable, str(SCRIPT), str(samples), str(problems), str(out), "--workers", "2"],
        check=True,
        timeout=60,
    )
    got = {r["task_id"]: r["passed"] for r in map(json.loads, out.read_text().splitlines())}
    assert got == {"right": True, "wrong": False, "raises": False, "exits": False}
