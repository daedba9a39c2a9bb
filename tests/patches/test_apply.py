from __future__ import annotations

import pytest
from factories import BUGGY, FIX, FIXED, VISIBLE

from truepass.answers import Answer
from truepass.errors import PatchError
from truepass.families.repair.schema import is_test_or_runner_file
from truepass.patches.apply import apply_answer, apply_diff, unified_diff

FILES = {"clamp.py": BUGGY}


def test_applies_reference_diff() -> None:
    assert apply_diff(FILES, FIX) == {"clamp.py": FIXED}


def test_drifted_line_numbers_found_by_context() -> None:
    drifted = FIX.replace("@@ -3,4 +3,4 @@", "@@ -40,4 +40,4 @@")
    assert apply_diff(FILES, drifted) == {"clamp.py": FIXED}


def test_missing_prefixes_accepted() -> None:
    plain = FIX.replace("a/clamp.py", "clamp.py").replace("b/clamp.py", "clamp.py")
    assert apply_diff(FILES, plain) == {"clamp.py": FIXED}


def test_context_mismatch_is_patch_error() -> None:
    with pytest.raises(PatchError, match=r"hunk 1 of 'clamp\.py' does not match"):
        apply_diff(FILES, FIX.replace("     if x > hi:", "     if x >= hi:"))


@pytest.mark.parametrize(
    "diff",
    [
        "not a diff at all",
        FIX.replace("a/clamp.py", "a/other.py"),
        FIX.replace("b/clamp", "b/../x"),
    ],
)
def test_bad_diffs(diff: str) -> None:
    with pytest.raises(PatchError):
        apply_diff(FILES, diff)


def test_roundtrip_new_and_deleted_files() -> None:
    after = {"clamp.py": FIXED, "extra.py": "X = 1\n"}
    assert apply_diff(FILES, unified_diff(FILES, after)) == after
    assert apply_diff(after, unified_diff(after, {"clamp.py": FIXED})) == {"clamp.py": FIXED}


def test_no_trailing_newline_roundtrip() -> None:
    after = {"clamp.py": FIXED.rstrip("\n")}
    assert apply_diff(FILES, unified_diff(FILES, after)) == after


def test_test_edits_dropped_and_listed() -> None:
    answer = Answer(
        files={
            "clamp.py": FIXED,
            "test_clamp.py": "def test_x():\n    pass\n",
            "conftest.py": "import pytest\n",
            "sub/pytest.ini": "[pytest]\n",
        }
    )
    applied = apply_answer(
        FILES, {"test_clamp.py": VISIBLE}, answer, is_test_file=is_test_or_runner_file
    )
    assert applied.test_edits == ["conftest.py", "sub/pytest.ini", "test_clamp.py"]
    assert applied.files == {"clamp.py": FIXED}
    assert applied.attempted["conftest.py"] == "import pytest\n"
    assert applied.changed == ["clamp.py"]
    assert "+        return hi" in applied.diff


def test_empty_answer_changes_nothing() -> None:
    applied = apply_answer(FILES, {}, Answer(diff=""))
    assert applied.changed == [] and applied.diff == ""


def test_a_diff_editing_a_visible_test_applies_and_is_dropped() -> None:
    weaken = unified_diff({"test_clamp.py": VISIBLE}, {"test_clamp.py": VISIBLE.replace(
        "assert clamp(9, 0, 5) == 5", "assert True")})  # fmt: skip
    applied = apply_answer(
        FILES,
        {"test_clamp.py": VISIBLE},
        Answer(diff=FIX + weaken),
        is_test_file=is_test_or_runner_file,
    )
    assert applied.test_edits == ["test_clamp.py"]
    assert applied.files == {"clamp.py": FIXED}
    assert "assert True" in applied.attempted["test_clamp.py"]
