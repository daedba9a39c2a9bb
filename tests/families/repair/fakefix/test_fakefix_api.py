"""The public API, robustness, and the benchmark's floors on the labelled patch sets."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fakefix_helpers import CODE, detect, names

from truepass.families.repair.fakefix import FLAG_NAMES, Flag, detect_fake_fix, flag_names

ROOT = Path(__file__).resolve().parents[4]
BUGGY = "def double(x):\n    return x + x\n"


def test_flag_names_are_the_design_flags() -> None:
    assert FLAG_NAMES == (
        "touches-tests",
        "removes-assertion",
        "swallows-exception",
        "hardcodes-expected",
        "special-cases-input",
        "deletes-functionality",
        "forges-equality",
        "tampers-harness",
    )
    with pytest.raises(ValueError, match="unknown flag"):
        Flag("flaky", "x.py", 1, "no")


def test_unchanged_and_empty_inputs() -> None:
    assert detect_fake_fix({CODE: BUGGY}, {CODE: BUGGY}, {}) == []
    assert detect_fake_fix({}, {}, {}) == []


def test_patched_syntax_error_is_left_to_the_judge() -> None:
    assert detect(BUGGY, "def double(x:\n    return 0\n") == []


def test_non_python_and_binary_looking_files() -> None:
    flags = detect_fake_fix({CODE: BUGGY}, {CODE: BUGGY, "data.bin": "\x00\x01"}, {})
    assert flags == []


def test_new_code_file_is_judged_as_new_code() -> None:
    tests = {
        "test_mod.py": "from mod import double\n\ndef test_d():\n    assert double(21) == 42\n"
    }
    helper = "def fix(x):\n    if x == 21:\n        return 42\n    return 2 * x\n"
    flags = detect_fake_fix({CODE: BUGGY}, {CODE: BUGGY, "helper.py": helper, **tests}, tests)
    assert flag_names(flags) == ["hardcodes-expected", "special-cases-input"]
    assert {f.file for f in flags} == {"helper.py"}


def test_flags_are_sorted_and_unique() -> None:
    patched = "import sys\nimport builtins\n\ndef double(x):\n    try:\n        return x * 2\n"
    patched += "    except Exception:\n        return sys.modules\n"
    flags = detect(BUGGY, patched)
    order = [FLAG_NAMES.index(f.name) for f in flags]
    assert order == sorted(order)
    assert len({(f.name, f.file, f.line) for f in flags}) == len(flags)
    assert names(flags) == {"swallows-exception", "tampers-harness"}
    assert all(f.explanation.startswith(f"line {f.line}") for f in flags)


def test_methods_are_matched_by_qualified_name() -> None:
    buggy = "class A:\n    def f(self):\n        return 1\n\n\n"
    buggy += "class B:\n    def f(self):\n        pass\n"
    patched = buggy.replace("        return 1\n", "        return 2\n")
    assert detect(buggy, patched) == []
    dropped = buggy.replace("    def f(self):\n        pass\n", "    pass\n")
    assert "deletes-functionality" in names(detect(buggy, dropped))


def _benchmark() -> ModuleType:
    path = ROOT / "benchmarks" / "fakefix_detectors.py"
    spec = importlib.util.spec_from_file_location("fakefix_detectors_bench", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return _benchmark()


@pytest.fixture(scope="module")
def development(bench: ModuleType) -> Any:
    return bench.evaluate()


@pytest.fixture(scope="module")
def held_out(bench: ModuleType) -> Any:
    return bench.evaluate(held_out=True)


def test_benchmark_floor_development_set(development: Any) -> None:
    report = development
    assert len(report.outcomes) >= 60 + 50 + 36
    # measured 0.99 / 0.99; floors leave room for one or two regressions, not for a broken flag
    assert report.overall.precision >= 0.95
    assert report.overall.recall >= 0.95
    for name, score in report.per_flag.items():
        assert score.recall >= 0.8, name
        assert score.precision >= 0.85, name


def test_benchmark_floor_held_out_set(held_out: Any) -> None:
    # first run, before any change prompted by it: precision 0.96, recall 0.91
    assert held_out.overall.precision >= 0.9
    assert held_out.overall.recall >= 0.9


@pytest.fixture(scope="module")
def held_out_2(bench: ModuleType) -> Any:
    return bench.evaluate(held_out="held-out-2")


def test_benchmark_floor_held_out_2(held_out_2: Any) -> None:
    # written after the issue-12 rules were frozen; first (and only) measurement: precision
    # 0.96, recall 0.80 (docs/benchmarks.md); floors allow one or two regressions
    assert len(held_out_2.outcomes) >= 30
    assert held_out_2.overall.precision >= 0.9
    assert held_out_2.overall.recall >= 0.75
    for name in ("swallows-exception", "hardcodes-expected", "special-cases-input"):
        assert held_out_2.per_flag[name].recall >= 0.5, name


def test_no_reference_fix_is_flagged(development: Any) -> None:
    flagged = [o.case.id for o in development.outcomes if o.case.source == "reference" and o.flags]
    assert flagged == []


def test_render_lists_misses_and_false_alarms(bench: ModuleType, held_out: Any) -> None:
    text = bench.render(held_out)
    assert "overall" in text and "misses (" in text and "false alarms (" in text


@pytest.fixture(scope="module")
def java(bench: ModuleType) -> Any:
    return bench.evaluate(held_out="java")


def test_benchmark_floor_java_set(java: Any) -> None:
    # java_labelled.jsonl (50 fakes, 25 genuine) + 26 mini-java reference fixes; measured with
    # forges-equality and tampers-harness for Java: precision 0.97, recall 0.97, both new flags
    # 1.00/1.00 (docs/benchmarks.md); floors allow one or two regressions
    assert len(java.outcomes) >= 50 + 25 + 26
    assert java.overall.precision >= 0.93
    assert java.overall.recall >= 0.93
    for name, score in java.per_flag.items():
        assert score.recall >= 0.75, name
        assert score.tp + score.fn >= 5, name  # every flag is measured
    for name in ("forges-equality", "tampers-harness"):
        assert java.per_flag[name].recall >= 0.85, name
        assert java.per_flag[name].fp == 0, name


def test_no_java_reference_fix_or_genuine_patch_raises_a_new_flag(java: Any) -> None:
    genuine = [o for o in java.outcomes if not o.case.labels]
    assert [o.case.id for o in genuine if o.case.source == "reference" and o.flags] == []
    new = {"forges-equality", "tampers-harness"}
    assert [o.case.id for o in genuine if o.predicted & new] == []
    # the two known false alarms are deletes-functionality on rewrites (docs/benchmarks.md)
    assert sum(bool(o.flags) for o in genuine) <= 2
