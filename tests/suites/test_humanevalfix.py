"""The HumanEvalFix adapter on the real HumanEvalPack data (read from ../shared, never copied)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from truepass.checking import SuiteHealth, check_suite, write_health
from truepass.errors import SuiteError
from truepass.families.repair.adapters.humanevalfix import (
    first_sentence,
    load_humanevalfix,
    normalise_bug_type,
)
from truepass.families.repair.schema import RepairSample
from truepass.judged import JudgeConfig
from truepass.patches.apply import apply_diff
from truepass.sandbox import Limits
from truepass.suites.loader import load_adapted, parse_jsonl

DATA_DIR = Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "humanevalpack-python"
DATA_FILE = DATA_DIR / "humanevalpack_python.jsonl"
needs_data = pytest.mark.skipif(
    not DATA_FILE.is_file(),
    reason=f"HumanEvalPack data not found at {DATA_FILE} (see ../shared/benchmarks/README.md)",
)
SIX = {
    "value-misuse",
    "missing-logic",
    "excess-logic",
    "operator-misuse",
    "variable-misuse",
    "function-misuse",
}


@pytest.fixture(scope="module")
def loaded() -> tuple[list[RepairSample], bytes]:
    if not DATA_FILE.is_file():
        pytest.skip(f"HumanEvalPack data not found at {DATA_FILE}")
    return load_humanevalfix(DATA_DIR)


def _by_id(samples: list[RepairSample], sample_id: str) -> RepairSample:
    return next(s for s in samples if s.id == sample_id)


@needs_data
def test_loads_all_164_valid_samples(loaded: tuple[list[RepairSample], bytes]) -> None:
    samples, raw = loaded
    assert raw == DATA_FILE.read_bytes()
    assert len(samples) == 164
    assert len({s.id for s in samples}) == 164
    assert {s.defect_type for s in samples} == SIX
    # the samples survive the suite format's own validation (round trip through JSONL)
    jsonl = "\n".join(s.model_dump_json() for s in samples).encode()
    again = parse_jsonl(jsonl, Path("humanevalfix.jsonl"))
    assert again == samples
    for s in samples:
        assert s.source.startswith("HumanEvalPack/HumanEvalFix") and s.leakage == "public-old"
        assert list(s.files) == ["solution.py"]
        for text in (*s.files.values(), *s.test_files.values()):
            ast.parse(text)
        fixed = apply_diff(s.files, s.fix)
        assert fixed != s.files
        assert s.fault and s.fault[0].lines


@needs_data
def test_file_and_directory_give_the_same_samples(
    loaded: tuple[list[RepairSample], bytes],
) -> None:
    assert load_humanevalfix(DATA_FILE)[0] == loaded[0]


@needs_data
def test_first_record_is_built_as_documented(loaded: tuple[list[RepairSample], bytes]) -> None:
    record = json.loads(DATA_FILE.read_text(encoding="utf-8").splitlines()[0])
    s = _by_id(loaded[0], "humanevalfix-0")
    assert s.defect_type == "missing-logic"
    assert s.description == (
        "Check if in given list of numbers, are any two numbers closer to each other than "
        "given threshold."
    )
    assert s.files["solution.py"] == record["declaration"] + record["buggy_solution"]
    fixed = apply_diff(s.files, s.fix)["solution.py"]
    assert fixed == record["declaration"] + record["canonical_solution"]
    assert s.fix.startswith("--- a/solution.py\n+++ b/solution.py\n")
    buggy_lines = s.files["solution.py"].splitlines()
    assert [buggy_lines[n - 1].strip() for n in s.fault[0].lines] == ["distance = elem - elem2"]
    visible = s.tests.visible["test_example.py"]
    hidden = s.tests.hidden["test_hidden.py"]
    assert "from solution import has_close_elements" in visible
    # one pytest function per assert of check()
    assert visible.count("\ndef test_check_") == 2
    assert hidden.count("\ndef test_check_") == 7


@needs_data
def test_upstream_quirks_are_handled(loaded: tuple[list[RepairSample], bytes]) -> None:
    samples = loaded[0]
    empty = [s.id for s in samples if s.meta["visible_from"] == "test"]
    assert empty == [f"humanevalfix-{n}" for n in (38, 41, 50, 83, 84, 160)]
    for sample_id in empty:
        s = _by_id(samples, sample_id)
        assert s.tests.visible["test_example.py"] == s.tests.hidden["test_hidden.py"]
    repaired = _by_id(samples, "humanevalfix-119")
    assert "example_test_repaired" in repaired.meta
    assert repaired.tests.visible["test_example.py"].count("\ndef test_check_") == 2
    # a check whose assert sits in a loop keeps the loop as its own test, setup repeated
    add = _by_id(samples, "humanevalfix-53").tests.hidden["test_hidden.py"]
    assert add.count("\ndef test_check_") == 6 and add.count("import random") == 6
    # a check with a single (looping) test statement stays one test
    zero = _by_id(samples, "humanevalfix-32").tests.hidden["test_hidden.py"]
    assert "def test_check() -> None:" in zero and "poly(coeffs, solution)" in zero


@pytest.fixture(scope="module")
def health(loaded: tuple[list[RepairSample], bytes]) -> SuiteHealth:
    """check-suite on all 164 samples, once (the slow tests below share it)."""
    config = JudgeConfig(limits=Limits(timeout_s=30), reruns=1)  # 4 buggy samples loop forever
    return check_suite(load_adapted("humanevalfix", DATA_DIR), config=config, jobs=2)


# Among the valid ones: plain (0), empty example_test -> full test visible + helper from the
# declaration (38), an assert inside a loop (53), the repaired example_test (119). Invalid: 32,
# whose upstream example_test (`assert abs(x + 0.5 < 1e-4)`) is too weak: the buggy code passes.
@needs_data
@pytest.mark.slow
def test_check_suite_gate(health: SuiteHealth, tmp_path: Path) -> None:
    """CI gate: 150 of 164 valid, the other 14 invalid (buggy code passes the example tests);
    the oracle correct on every valid sample, noop correct on none."""
    by_id = {s.sample_id: s for s in health.samples}
    others = {s.sample_id: s.problems for s in health.problems if s.status != "invalid"}
    assert not others, others
    assert health.counts == {
        "samples": 164, "valid": 150, "ok": 150, "invalid": 14, "reference-fails": 0,
        "flaky": 0, "overfit-not-overfit": 0, "infra-error": 0, "environment": 0,
        "known_overfit": 0, "known_overfit_overfit": 0,
    }  # fmt: skip
    valid = [s for s in health.samples if s.valid]
    assert all(s.reference == "correct" for s in valid)
    assert not [s.sample_id for s in health.samples if s.noop == "correct"]
    assert {s.noop for s in valid} <= {"fails-visible", "broken", "timeout"}
    for sample_id in ("humanevalfix-0", "humanevalfix-38", "humanevalfix-53", "humanevalfix-119"):
        assert by_id[sample_id].status == "ok"
    assert by_id["humanevalfix-32"].status == "invalid"
    assert health.exit_code() == 1 and health.exit_code(allow_invalid=True) == 0
    json_path, md_path = write_health(health, tmp_path)
    assert json.loads(json_path.read_text())["counts"] == health.counts
    assert md_path.read_text().count("| invalid | invalid: the buggy code already passes") == 14


# --- behaviour on synthetic records (no data needed) ---------------------------------------------

RECORD = {
    "task_id": "Python/7",
    "prompt": (
        'def inc(x: int) -> int:\n    """Add one to x. Then stop.\n    >>> inc(1)\n    2\n    """\n'
    ),
    "declaration": "def inc(x: int) -> int:\n",
    "buggy_solution": "    return x + 2\n",
    "canonical_solution": "    return x + 1\n",
    "bug_type": "value misuse",
    "entry_point": "inc",
    "example_test": "def check(inc):\n    assert inc(1) == 2\ncheck(inc)\n",
    "test": (
        "def check(candidate):\n    base = 10\n    assert candidate(1) == 2\n"
        "    assert candidate(base) == 11\ncheck(inc)\n"
    ),
    "instruction": "Write a Python function `inc(x: int) -> int` to solve the problem.",
}


def _write(tmp_path: Path, *records: dict[str, object] | str) -> Path:
    path = tmp_path / "hep.jsonl"
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_synthetic_record(tmp_path: Path) -> None:
    samples, _ = load_humanevalfix(_write(tmp_path, RECORD))
    (s,) = samples
    assert s.id == "humanevalfix-7" and s.defect_type == "value-misuse"
    assert s.description == "Add one to x."
    assert s.fault[0].lines == [2]
    hidden = s.tests.hidden["test_hidden.py"]
    assert hidden.count("\ndef test_check_") == 2 and hidden.count("base = 10") == 2
    assert "_check_01(inc)" in hidden


def test_pure_insertion_points_at_the_line_before(tmp_path: Path) -> None:
    record = dict(
        RECORD,
        buggy_solution="    y = x\n    return y\n",
        canonical_solution="    y = x\n    y += 1\n    return y\n",
    )
    (s,) = load_humanevalfix(_write(tmp_path, record))[0]
    assert s.fault[0].lines == [2]


@pytest.mark.parametrize(
    ("line", "field", "needle"),
    [
        ("{not json", None, "not valid JSON"),
        (json.dumps({k: v for k, v in RECORD.items() if k != "test"}), "test", "missing"),
        (json.dumps(dict(RECORD, task_id="Java/7")), "task_id", "Python/<number>"),
        (json.dumps(dict(RECORD, bug_type=3)), "bug_type", "must be a string"),
        (json.dumps(dict(RECORD, test="assert inc(1) == 2\n")), "test", "def check"),
        (json.dumps(dict(RECORD, canonical_solution="    return (\n")), "canonical_solution", ""),
        (json.dumps(dict(RECORD, buggy_solution="    return x + 1\n")), "buggy_solution", ""),
    ],
)
def test_malformed_input_names_file_line_and_field(
    tmp_path: Path, line: str, field: str | None, needle: str
) -> None:
    path = _write(tmp_path, RECORD | {"task_id": "Python/1"}, line)
    with pytest.raises(SuiteError) as info:
        load_humanevalfix(path)
    assert info.value.location == f"{path}:2"
    assert info.value.field == field
    assert needle in str(info.value)


def test_duplicate_task_and_missing_path(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="duplicate task") as info:
        load_humanevalfix(_write(tmp_path, RECORD, RECORD))
    assert info.value.field == "task_id"
    with pytest.raises(SuiteError, match="no such file"):
        load_humanevalfix(tmp_path / "absent")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SuiteError, match=r"expected humanevalpack_python\.jsonl"):
        load_humanevalfix(tmp_path / "empty")


def test_helpers() -> None:
    assert normalise_bug_type("value misuse") == "value-misuse"
    assert normalise_bug_type("Excess  Logic") == "excess-logic"
    assert first_sentence("Return x. More.\n>>> f()\n") == "Return x."
    assert first_sentence("No full stop here\n\nOther paragraph.") == "No full stop here"
