"""The bundled `mini-java` suite: small Java defects with JUnit 4 visible and hidden tests.

Only the suite's shape is checked here; nothing is compiled or run (candidate code runs only in
the sandbox). ``scripts/check_mini_java_by_hand.py`` compiles and runs every sample by hand.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from truepass.answers import Answer
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.schema import RepairSample, is_test_or_runner_file
from truepass.patches.apply import changed_lines
from truepass.suites.loader import Suite, bundled_suites, load_suite

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "src" / "truepass" / "suites" / "bundled" / "mini-java"
TEST_METHOD = re.compile(r"@Test\s+public void (\w+)\(\)")


@pytest.fixture(scope="module")
def suite() -> Suite:
    return load_suite("mini-java")


def _samples(suite: Suite) -> list[RepairSample]:
    samples = [s for s in suite.samples if isinstance(s, RepairSample)]
    assert len(samples) == len(suite.samples)
    return samples


def _class_name(path: str) -> str:
    return Path(path).stem


def test_suite_loads_by_its_bundled_name(suite: Suite) -> None:
    assert "mini-java" in bundled_suites()
    assert (suite.name, suite.version, suite.family) == ("mini-java", "1.0.0", "repair")
    assert suite.description


def test_size_and_defect_types(suite: Suite) -> None:
    samples = _samples(suite)
    assert len(samples) >= 20
    assert len({s.defect_type for s in samples}) >= 6
    assert sum(1 for s in samples if s.known_overfit) >= 8


def test_every_sample_validates(suite: Suite) -> None:
    for s in _samples(suite):
        again = RepairSample.model_validate(s.model_dump())
        assert again == s
        assert s.language == "java"
        assert s.leakage == "private"
        assert s.source == "truepass mini-java, written for truepass"
        assert re.fullmatch(r"minij-\d{3}-[a-z0-9-]+", s.id), s.id


def test_ids_are_unique(suite: Suite) -> None:
    counts = Counter(s.id for s in _samples(suite))
    assert [i for i, n in counts.items() if n > 1] == []


def test_code_and_test_files_are_on_their_sides(suite: Suite) -> None:
    for s in _samples(suite):
        for path, text in s.files.items():
            assert path.startswith("src/main/java/mini/") and path.endswith(".java"), path
            assert not is_test_or_runner_file(path), path
            assert text.startswith("package mini;\n"), path
            assert f"class {_class_name(path)} " in text, path
        for path, text in s.test_files.items():
            assert path.startswith("src/test/java/mini/") and path.endswith("Test.java"), path
            assert is_test_or_runner_file(path), path
            assert text.startswith("package mini;\n"), path
            assert f"public class {_class_name(path)} " in text, path
            assert "import org.junit.Test;" in text, path


def test_one_visible_and_one_different_hidden_test_class(suite: Suite) -> None:
    for s in _samples(suite):
        assert len(s.tests.visible) == 1 and len(s.tests.hidden) == 1, s.id
        (visible,) = s.tests.visible
        (hidden,) = s.tests.hidden
        assert _class_name(visible) != _class_name(hidden), s.id
        assert _class_name(hidden) == _class_name(visible).removesuffix("Test") + "HiddenTest"
        ids = [
            f"{path}::{method}"
            for path, text in s.test_files.items()
            for method in TEST_METHOD.findall(text)
        ]
        assert len(ids) == len(set(ids)), s.id
        for path, text in s.test_files.items():
            assert TEST_METHOD.findall(text), f"{s.id}: {path} has no @Test methods"
            assert text.count("@Test") == len(TEST_METHOD.findall(text)), path


def test_fix_applies_and_changes_only_the_fault_files(suite: Suite) -> None:
    for s in _samples(suite):
        applied = apply_to_sample(s, Answer(diff=s.fix))
        assert applied.test_edits == [], s.id
        assert applied.changed == sorted(loc.file for loc in s.fault), s.id
        assert set(applied.files) == set(s.files), s.id


def test_fault_lines_are_the_lines_the_fix_changes(suite: Suite) -> None:
    for s in _samples(suite):
        fixed = apply_to_sample(s, Answer(diff=s.fix)).files
        for loc in s.fault:
            assert loc.lines, s.id
            assert loc.lines == changed_lines(s.files[loc.file], fixed[loc.file]), s.id


def test_known_overfit_applies_and_differs_from_the_fix(suite: Suite) -> None:
    for s in _samples(suite):
        if s.known_overfit is None:
            continue
        overfit = apply_to_sample(s, Answer(diff=s.known_overfit))
        fixed = apply_to_sample(s, Answer(diff=s.fix))
        assert overfit.test_edits == [], s.id
        assert overfit.changed and set(overfit.changed) <= set(s.files), s.id
        assert overfit.files != fixed.files, s.id
        assert overfit.files != s.files, s.id


def test_diffs_have_mini_shape(suite: Suite) -> None:
    for s in _samples(suite):
        for diff in filter(None, (s.fix, s.known_overfit)):
            lines = diff.splitlines()
            assert lines[0].startswith("--- a/src/main/java/mini/"), s.id
            assert lines[1].startswith("+++ b/src/main/java/mini/"), s.id
            assert diff.endswith("\n"), s.id


def test_builder_reproduces_the_bundle(tmp_path: Path) -> None:
    got = subprocess.run(
        [sys.executable, "scripts/build_mini_java.py", "--out", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert got.returncode == 0, got.stdout + got.stderr
    for name in ("suite.jsonl", "suite.toml"):
        assert (tmp_path / name).read_bytes() == (BUNDLE / name).read_bytes(), name
