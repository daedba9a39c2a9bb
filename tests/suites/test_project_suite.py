"""The bundled `project` suite: one whole project (stockroom) with defects injected one at a time.

Fast tests check the bundle against its source tree and its shape; the slow ones run every
sample in the sandbox (check-suite, the noop solver, and the hidden tests on the buggy code).
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from truepass.checking import check_suite
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.testrun import run_tests
from truepass.judged import JudgeConfig
from truepass.runner import run
from truepass.sandbox import Limits
from truepass.solvers import make_solver
from truepass.suites.loader import Suite, load_suite

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "suites" / "project"
sys.path.insert(0, str(ROOT / "scripts"))

from build_suite import BuildError, build  # noqa: E402


@pytest.fixture(scope="module")
def suite() -> Suite:
    return load_suite("project")


def _base_files(under_tests: bool) -> set[str]:
    base = SRC / "base"
    paths = {
        p.relative_to(base).as_posix()
        for p in base.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }
    return {p for p in paths if p.startswith("tests/") == under_tests}


def test_bundle_is_built_from_its_source_tree() -> None:
    got = subprocess.run(
        [sys.executable, "scripts/build_suite.py", "suites/project",
         "src/truepass/suites/bundled/project", "--check"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert got.returncode == 0, got.stdout + got.stderr


def test_every_sample_holds_the_whole_project(suite: Suite) -> None:
    assert suite.name == "project"
    assert len(suite.samples) >= 15
    code, tests = _base_files(False), _base_files(True)
    for sample in suite.samples:
        assert set(sample.files) == code, sample.id
        assert sum(len(c.splitlines()) for c in sample.files.values()) >= 1500, sample.id
        assert set(sample.tests.hidden) == tests, sample.id
        visible = set(sample.tests.visible)
        assert "tests/__init__.py" in visible, sample.id
        assert all(p.startswith("tests/test_issue_") for p in visible - {"tests/__init__.py"})
        assert not (visible - {"tests/__init__.py"}) & tests, sample.id
        faulty = {loc.file for loc in sample.fault}
        assert faulty <= code and 1 <= len(faulty) <= 2, sample.id
        assert sample.leakage == "private"


def test_defects_are_varied_and_some_span_two_places(suite: Suite) -> None:
    samples = suite.samples
    assert len({s.defect_type for s in samples}) >= 8
    two_files = [s.id for s in samples if len(s.fault) == 2]
    assert len(two_files) >= 3, two_files
    # two places: two files, or one file changed in hunks more than 5 lines apart
    two_places = [
        s.id
        for s in samples
        if len(s.fault) == 2 or max(s.fault[0].lines) - min(s.fault[0].lines) > 5
    ]
    assert len(two_places) >= 4, two_places
    assert sum(s.known_overfit is not None for s in samples) >= 5


def _tiny_project(root: Path) -> Path:
    (root / "base" / "tests").mkdir(parents=True)
    (root / "base" / "calc.py").write_text("def double(x):\n    return 2 * x\n")
    (root / "base" / "tests" / "__init__.py").write_text("")
    (root / "base" / "tests" / "test_calc.py").write_text(
        "from calc import double\n\n\ndef test_double():\n    assert double(3) == 6\n"
    )
    (root / "suite.toml").write_text('name = "tiny"\nversion = "1"\ndescription = "d"\n'
                                      'source = "s"\nleakage = "private"\n')  # fmt: skip
    defect = root / "defects" / "d1"
    (defect / "visible" / "tests").mkdir(parents=True)
    (defect / "meta.toml").write_text('defect_type = "wrong-operator"\ndescription = "x"\n')
    (defect / "inject.diff").write_text(
        "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def double(x):\n"
        "-    return 2 * x\n+    return 2 + x\n"
    )
    (defect / "visible" / "tests" / "test_issue_double.py").write_text(
        "from calc import double\n\n\ndef test_four():\n    assert double(4) == 8\n"
    )
    return defect


def test_builder_turns_a_project_tree_into_samples(tmp_path: Path) -> None:
    _tiny_project(tmp_path)
    outputs, count, _ = build(tmp_path)
    assert count == 1
    sample = load_suite_line(outputs["suite.jsonl"])
    assert sample["files"] == {"calc.py": "def double(x):\n    return 2 + x\n"}
    assert set(sample["tests"]["visible"]) == {"tests/__init__.py", "tests/test_issue_double.py"}
    assert set(sample["tests"]["hidden"]) == {"tests/__init__.py", "tests/test_calc.py"}
    assert sample["fault"] == [{"file": "calc.py", "lines": [2]}]
    assert "+    return 2 * x" in sample["fix"]


def load_suite_line(jsonl: str) -> dict[str, Any]:
    (line,) = jsonl.splitlines()
    return json.loads(line)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("diff", "message"),
    [
        ("--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def double(x):\n-    return 3 * x\n"
         "+    return 2 + x\n", "does not apply"),
        ("--- a/tests/test_calc.py\n+++ b/tests/test_calc.py\n@@ -1 +1 @@\n"
         "-from calc import double\n+from calc import double as d\n", "does not apply"),
    ],
)  # fmt: skip
def test_builder_refuses_bad_injections(tmp_path: Path, diff: str, message: str) -> None:
    defect = _tiny_project(tmp_path)
    (defect / "inject.diff").write_text(diff)
    with pytest.raises(BuildError, match=message):
        build(tmp_path)


def test_builder_refuses_visible_tests_outside_tests(tmp_path: Path) -> None:
    defect = _tiny_project(tmp_path)
    (defect / "visible" / "test_top.py").write_text("def test_x():\n    pass\n")
    with pytest.raises(BuildError, match="must live under tests/"):
        build(tmp_path)


@pytest.mark.slow
def test_project_checks_clean_and_noop_never_passes(suite: Suite, tmp_path: Path) -> None:
    health = check_suite(suite, config=JudgeConfig(limits=Limits(timeout_s=60), reruns=1))
    assert [s.problems for s in health.problems] == []
    assert health.valid == len(suite.samples)
    assert all(s.reference == "correct" for s in health.samples)
    by_id = {s.sample_id: s for s in health.samples}
    for sample in suite.samples:
        expected = "overfit" if sample.known_overfit else None
        assert by_id[sample.id].known_overfit == expected, sample.id

    result = run(suite, [make_solver("noop")], tmp_path / "noop", config=JudgeConfig(reruns=0))
    noop = result.summary.solvers[0].overall
    assert noop.counted == len(suite.samples) and noop.plausible == 0


@pytest.mark.slow
def test_hidden_tests_fail_on_every_buggy_project(suite: Suite) -> None:
    limits = Limits(timeout_s=60)

    def failing(sample: RepairSample) -> tuple[str, list[str]]:
        got = run_tests(sample, sample.files, sample.tests.hidden, limits=limits)
        assert got.started and got.finished and not got.timed_out, sample.id
        return sample.id, sorted(got.failed)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(pool.map(failing, suite.samples))
    assert [sid for sid, failed in results.items() if not failed] == []
