"""Seed 001's patch types (issue 28, item 4), on small Python and Java patches classified by
hand, and their distribution and correct rate per type in the repair family's metrics."""

from __future__ import annotations

import textwrap

import pytest

from truepass.families.repair.evidence import RepairEvidence
from truepass.families.repair.family import RepairFamily
from truepass.families.repair.javametrics import JAVA
from truepass.families.repair.patchtypes import PatchType, patch_type, patch_type_metrics
from truepass.metrics.quality import PYTHON
from truepass.patches.apply import unified_diff
from truepass.records import AttemptRecord

PY = textwrap.dedent(
    """\
    LIMIT = 10


    def clamp(x, lo, hi):
        if x < lo:
            return lo
        if x > hi:
            return lo
        return x


    def mean(values):
        total = 0
        for v in values[1:]:
            total += v
        if not values:
            return 0
        n = len(values)
        assert n > 0
        assert total >= 0
        assert isinstance(total, int)
        m = total / n
        return m
    """
)
JAVA_PATH = "src/Calc.java"
JAVA_SRC = textwrap.dedent(
    """\
    public class Calc {
        public int divide(int a, int b) {
            return a / b;
        }

        public int average(int[] values) {
            int sum = 0;
            for (int i = 1; i < values.length; i++) {
                sum += values[i];
            }
            return sum / values.length;
        }
    }
    """
)


def _py(fixed: str) -> PatchType | None:
    return patch_type({"m.py": PY}, unified_diff({"m.py": PY}, {"m.py": fixed}), PYTHON)


def test_one_line_replaced_is_single_line() -> None:
    fixed = PY.replace("    if x > hi:\n        return lo", "    if x > hi:\n        return hi")
    assert _py(fixed) is PatchType.SINGLE_LINE


def test_one_line_inserted_is_single_line() -> None:
    assert (
        _py(PY.replace("    return x\n", "    x = int(x)\n    return x\n")) is PatchType.SINGLE_LINE
    )


def test_two_adjacent_lines_are_one_hunk() -> None:
    fixed = PY.replace("    if x > hi:\n        return lo", "    if x >= hi:\n        return hi")
    assert _py(fixed) is PatchType.SINGLE_HUNK


def test_two_hunks_in_one_function() -> None:
    # line 14 (values[1:]) and line 22 (m = total / n) are 8 lines apart: two hunks of mean
    fixed = PY.replace("values[1:]", "values").replace("m = total / n", "m = total / max(n, 1)")
    assert _py(fixed) is PatchType.SEVERAL_HUNKS


def test_changes_in_two_functions() -> None:
    fixed = PY.replace("return lo\n    return x", "return hi\n    return x").replace(
        "m = total / n", "m = total / max(n, 1)"
    )
    assert _py(fixed) is PatchType.SEVERAL_FUNCTIONS


def test_a_function_and_the_module_level_are_two_scopes() -> None:
    fixed = PY.replace("LIMIT = 10", "LIMIT = 11").replace("m = total / n", "m = total / 2")
    assert _py(fixed) is PatchType.SEVERAL_FUNCTIONS


def test_two_files() -> None:
    before = {"m.py": PY, "n.py": "A = 1\n"}
    after = {"m.py": PY.replace("LIMIT = 10", "LIMIT = 11"), "n.py": "A = 2\n"}
    assert patch_type(before, unified_diff(before, after), PYTHON) is PatchType.SEVERAL_FILES


def test_no_change_and_garbage_have_no_type() -> None:
    assert patch_type({"m.py": PY}, "", PYTHON) is None
    assert patch_type({"m.py": PY}, "not a diff at all\n", PYTHON) is None


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("int i = 1", "int i = 0", PatchType.SINGLE_LINE),
        ("        return a / b;\n", "        if (b == 0) {\n            return 0;\n        }\n"
         "        return a / b;\n", PatchType.SINGLE_HUNK),
        ("return a / b;", "return b == 0 ? 0 : a / b;", None),  # combined below
    ],
)  # fmt: skip
def test_java_patch_types(old: str, new: str, expected: PatchType | None) -> None:
    fixed = JAVA_SRC.replace(old, new)
    if expected is None:  # divide (line 3) and average (line 8): two methods, lizard's spans
        fixed = fixed.replace("int i = 1", "int i = 0")
        expected = PatchType.SEVERAL_FUNCTIONS
    diff = unified_diff({JAVA_PATH: JAVA_SRC}, {JAVA_PATH: fixed})
    assert patch_type({JAVA_PATH: JAVA_SRC}, diff, JAVA) is expected


def _rec(
    i: int, verdict: str, kind: PatchType | None, flags: list[str] | None = None
) -> AttemptRecord:
    r = AttemptRecord(suite="s", sample_id=f"s{i}", defect_type="d", leakage="private",
                      solver="x", attempt=0, verdict=verdict, flags=flags or [])  # fmt: skip
    RepairEvidence.on(r).patch_type = kind
    return r


def test_distribution_and_correct_rate_per_type() -> None:
    records = [
        _rec(1, "correct", PatchType.SINGLE_LINE),
        _rec(2, "correct", PatchType.SINGLE_LINE, ["hardcodes-expected"]),  # not counted correct
        _rec(3, "fails-visible", PatchType.SINGLE_LINE),
        _rec(4, "correct", PatchType.SEVERAL_FILES),
        _rec(5, "no-patch", None),  # no patch: no type
        _rec(6, "infra-error", PatchType.SINGLE_HUNK),  # not counted
    ]
    m = RepairFamily().metrics(records)
    # by hand: 4 typed counted attempts, 3 single-line (1 correct), 1 several-files (correct)
    assert m["patch_types_n"] == 4
    assert m["patch_type[single-line]"] == 0.75
    assert m["patch_type[several-files]"] == 0.25
    assert m["patch_type[single-hunk]"] == 0.0
    assert m["correct_rate[single-line]"] == round(1 / 3, 4)
    assert m["correct_rate[several-files]"] == 1.0
    assert "correct_rate[single-hunk]" not in m


def test_records_read_back_keep_their_type() -> None:
    r = _rec(1, "correct", PatchType.SEVERAL_HUNKS)
    back = AttemptRecord.model_validate_json(r.model_dump_json())
    assert RepairEvidence.of(back).patch_type is PatchType.SEVERAL_HUNKS
    assert (
        patch_type_metrics([(back, RepairEvidence.of(back).patch_type)])[
            "correct_rate[several-hunks]"
        ]
        == 1.0
    )
