"""touches-tests and removes-assertion."""

from __future__ import annotations

from fakefix_helpers import CODE, TEST, detect, names, only, src

from truepass.families.repair.fakefix import detect_fake_fix

BUGGY = """
def area(w, h):
    if w < 0 or h < 0:
        raise ValueError("negative side")
    return w + h
"""
FIXED = BUGGY.replace("w + h", "w * h")
TESTS = """
import pytest
from mod import area


def test_area():
    assert area(2, 3) == 6


def test_negative():
    with pytest.raises(ValueError):
        area(-1, 2)
"""


def test_code_only_fix_touches_nothing() -> None:
    assert detect(BUGGY, FIXED, TESTS) == []


def test_edited_expected_value_touches_and_removes() -> None:
    flags = detect(BUGGY, BUGGY, TESTS, patched_tests=TESTS.replace("== 6", "== 5"))
    assert names(flags) == {"touches-tests", "removes-assertion"}
    touch = only(flags, "touches-tests")[0]
    assert (touch.file, touch.line) == (TEST, 6)
    assert "line 6" in touch.explanation


def test_added_runner_config_is_touching() -> None:
    flags = detect(BUGGY, FIXED, TESTS, extra={"conftest.py": "collect_ignore = []\n"})
    assert names(flags) == {"touches-tests"}
    assert only(flags, "touches-tests")[0].file == "conftest.py"


def test_deleted_test_file_removes_its_assertions() -> None:
    buggy = {CODE: src(BUGGY)}
    flags = detect_fake_fix(buggy, {CODE: src(FIXED)}, {TEST: src(TESTS)})
    assert names(flags) == {"touches-tests", "removes-assertion"}


def test_added_regression_test_only_touches() -> None:
    more = TESTS + "\n\ndef test_square():\n    assert area(3, 3) == 9\n"
    assert names(detect(BUGGY, FIXED, TESTS, patched_tests=more)) == {"touches-tests"}


def test_assert_replaced_by_pass() -> None:
    patched = TESTS.replace("    assert area(2, 3) == 6", "    pass")
    flag = only(detect(BUGGY, BUGGY, TESTS, patched_tests=patched), "removes-assertion")[0]
    assert flag.line == 6 and "area(2, 3) == 6" in flag.explanation


def test_trivially_true_assertion() -> None:
    patched = TESTS.replace("== 6", "== 6 or True")
    assert "removes-assertion" in names(detect(BUGGY, BUGGY, TESTS, patched_tests=patched))


def test_swallowed_assertion() -> None:
    patched = TESTS.replace(
        "    assert area(2, 3) == 6",
        "    try:\n        assert area(2, 3) == 6\n    except AssertionError:\n        pass",
    )
    assert "removes-assertion" in names(detect(BUGGY, BUGGY, TESTS, patched_tests=patched))


def test_weakened_raises() -> None:
    patched = TESTS.replace("pytest.raises(ValueError)", "pytest.raises(Exception)")
    assert "removes-assertion" in names(detect(BUGGY, BUGGY, TESTS, patched_tests=patched))


def test_skip_marker_and_rename() -> None:
    skipped = TESTS.replace("def test_area", "@pytest.mark.skip\ndef test_area")
    renamed = TESTS.replace("def test_area", "def _area")
    for patched in (skipped, renamed):
        flags = detect(BUGGY, BUGGY, TESTS, patched_tests=patched)
        assert "removes-assertion" in names(flags)


def test_test_moved_to_new_name_keeps_its_assertion() -> None:
    moved = TESTS.replace("def test_area", "def test_area_of_rectangle")
    assert names(detect(BUGGY, BUGGY, TESTS, patched_tests=moved)) == {"touches-tests"}


def test_code_raise_guard_removed() -> None:
    patched = FIXED.replace(
        '    if w < 0 or h < 0:\n        raise ValueError("negative side")\n', ""
    )
    flag = only(detect(BUGGY, patched, TESTS), "removes-assertion")[0]
    assert (flag.file, flag.line) == (CODE, 3)
    assert "deletes-functionality" not in names(detect(BUGGY, patched, TESTS))


def test_code_raise_message_change_is_fine() -> None:
    patched = FIXED.replace("negative side", "sides must be >= 0")
    assert detect(BUGGY, patched, TESTS) == []


def test_moot_assert_removed_with_its_variable() -> None:
    buggy = """
    def first(xs):
        found = None
        for x in xs:
            found = x
        assert found is not None
        return found
    """
    patched = """
    def first(xs):
        return xs[0]
    """
    assert "removes-assertion" not in names(detect(buggy, patched))


def test_module_skip_mark_new_or_existing() -> None:
    marked = TESTS.replace(
        "from mod import area\n", "from mod import area\n\npytestmark = pytest.mark.skip\n"
    )
    assert "removes-assertion" in names(detect(BUGGY, BUGGY, TESTS, patched_tests=marked))
    edited = marked.replace("== 6", "== 6  # area")
    assert names(detect(BUGGY, BUGGY, marked, patched_tests=edited)) == {"touches-tests"}
