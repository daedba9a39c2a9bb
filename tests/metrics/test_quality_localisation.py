from __future__ import annotations

import pytest
from factories import BUGGY, FIX, FIXED

from truepass.metrics.localisation import localisation
from truepass.metrics.passk import pass_at_k, pass_at_ks
from truepass.metrics.quality import changed_lines, function_spans, quality_delta
from truepass.patches.apply import unified_diff

TWO = "def helper(x):\n    return x + 1\n\n\ndef main(x):\n    y = helper(x)\n    return y * 2\n"


def test_changed_lines_in_buggy_coordinates() -> None:
    assert changed_lines(FIX) == {"clamp.py": {5}}
    inserted = unified_diff({"a.py": "x = 1\ny = 2\n"}, {"a.py": "x = 1\nz = 0\ny = 2\n"})
    assert changed_lines(inserted) == {"a.py": {1}}


def test_quality_of_reference_fix() -> None:
    q = quality_delta({"clamp.py": BUGGY}, {"clamp.py": FIXED}, FIX, {"clamp.py": {5}})
    assert (q.lines_added, q.lines_removed, q.hunks, q.files_touched) == (1, 1, 1, 1)
    assert q.complexity_before == q.complexity_after == 3
    assert q.new_lint == {} and q.inside_fault_function is True


def test_quality_sees_complexity_lint_and_scope() -> None:
    after = TWO.replace("    return x + 1\n", "    import os\n    if x:\n        return x + 1\n"
                        "    return 0\n")  # fmt: skip
    diff = unified_diff({"m.py": TWO}, {"m.py": after})
    q = quality_delta({"m.py": TWO}, {"m.py": after}, diff, {"m.py": {6}})
    assert q.complexity_after == q.complexity_before + 1  # type: ignore[operator]
    assert q.new_lint == {"F401": 1}  # the unused import is new
    assert q.inside_fault_function is False  # the fault is in main, the patch edits helper


def test_localisation_hits() -> None:
    spans = function_spans(TWO)
    assert spans == [("helper", 1, 2), ("main", 5, 7)]
    same_function = unified_diff({"m.py": TWO}, {"m.py": TWO.replace("y * 2", "y * 3")})
    loc = localisation({"m.py": TWO}, same_function, {"m.py": {6}})
    assert loc and loc.hit_file and loc.hit_function and not loc.hit_line
    elsewhere = unified_diff({"m.py": TWO}, {"m.py": TWO.replace("x + 1", "x + 2")})
    loc = localisation({"m.py": TWO}, elsewhere, {"m.py": {6}})
    assert loc and loc.hit_file and not loc.hit_function
    assert localisation({"m.py": TWO}, "", {"m.py": {6}}) is None


@pytest.mark.parametrize(
    ("n", "c", "k", "want"), [(5, 0, 1, 0.0), (5, 5, 3, 1.0), (5, 1, 1, 0.2), (4, 2, 2, 1 - 1 / 6)]
)
def test_pass_at_k(n: int, c: int, k: int, want: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(want)


def test_pass_at_ks_stops_where_a_problem_has_too_few() -> None:
    assert pass_at_ks([(3, 1), (2, 0)]) == {"pass@1": pytest.approx(1 / 6, abs=1e-4),
                                            "pass@2": pytest.approx(1 / 3, abs=1e-4)}  # fmt: skip
    with pytest.raises(ValueError):
        pass_at_k(2, 3, 1)
