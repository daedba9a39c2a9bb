"""The humaneval adapter: the bundled HumanEval, EvalPlus-style files, errors."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from truepass.errors import SuiteError
from truepass.suites.loader import load_suite

RECORD = {
    "task_id": "Toy/0",
    "prompt": 'def double(x: int) -> int:\n    """Twice x."""\n',
    "entry_point": "double",
    "canonical_solution": "    return 2 * x\n",
}


def test_bundled_humaneval_is_complete_and_reproducible() -> None:
    first, second = load_suite("humaneval"), load_suite("humaneval")
    assert len(first.samples) == 164 and first.family == "codegen"
    assert first.content_hash == second.content_hash
    # checks that draw random inputs record the same ones on every load
    for task in ("HumanEval-38", "HumanEval-50", "HumanEval-53"):
        assert first.sample(task).tests.visible == second.sample(task).tests.visible
    assert all(s.leakage == "public-old" and s.tests.visible for s in first.samples)


def test_humaneval_style_file_records_its_check(tmp_path: Path) -> None:
    test = "def check(candidate):\n    for x in range(3):\n        assert candidate(x) == 2 * x\n"
    path = tmp_path / "toy.jsonl.gz"
    path.write_bytes(gzip.compress((json.dumps({**RECORD, "test": test}) + "\n").encode()))
    suite = load_suite(f"humaneval:{path}")
    assert [c.args for c in suite.samples[0].tests.visible] == ["0", "1", "2"]


def test_evalplus_style_file_gives_base_and_plus_cases(tmp_path: Path) -> None:
    rec = {**RECORD, "base_input": [[1], [2]], "plus_input": [[-5], [10**6]], "atol": 0}
    path = tmp_path / "plus.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    sample = load_suite(f"humaneval:{path}").samples[0]
    assert [c.args for c in sample.tests.visible] == ["1", "2"]
    assert [c.args for c in sample.tests.hidden] == ["-5", "1000000"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("{not json", "toy.jsonl:1: not valid JSON"),
        (json.dumps({"task_id": "x"}), "toy.jsonl:1: field 'prompt'"),
        (json.dumps(RECORD), "toy.jsonl:1: field 'test'"),
        (json.dumps({**RECORD, "base_input": [1]}), "field 'base_input': must be a list"),
    ],
)
def test_malformed_records_name_file_line_and_field(
    tmp_path: Path, line: str, expected: str
) -> None:
    path = tmp_path / "toy.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(SuiteError, match=expected):
        load_suite(f"humaneval:{path}")
