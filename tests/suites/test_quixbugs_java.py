"""The QuixBugs Java adapter, on the real benchmark files in ../shared/benchmarks (never copied
here). Nothing here compiles or runs Java: that is the sandboxed runner's job."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from truepass.answers import Answer
from truepass.errors import SuiteError
from truepass.families.registry import formats
from truepass.families.repair.adapters.quixbugs import visible_indices
from truepass.families.repair.adapters.quixbugs_java import load_quixbugs_java
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.schema import RepairSample

DATA = Path(__file__).parents[3] / "shared" / "benchmarks" / "quixbugs-java"
TESTS = "java_testcases/junit"
HELPER = f"{TESTS}/QuixFixOracleHelper.java"

needs_data = pytest.mark.skipif(
    not (DATA / "quixbugs_java.jsonl").is_file(),
    reason=f"QuixBugs Java files not found at {DATA} (see ../shared/benchmarks/README.md)",
)


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, str]]:
    lines = (DATA / "quixbugs_java.jsonl").read_text().splitlines()
    return {r["name"]: r for r in map(json.loads, filter(None, lines))}


@pytest.fixture(scope="module")
def samples() -> dict[str, RepairSample]:
    return {s.meta["upstream_name"]: s for s in load_quixbugs_java(DATA)[0]}  # type: ignore[misc]


def _methods(java: str) -> list[str]:
    """Test method names in file order (an independent, regex-level reading)."""
    java = re.sub(r"/\*.*?\*/|//[^\n]*", "", java, flags=re.S)
    return re.findall(r"@(?:org\.junit\.)?Test\b[^{]*?\bvoid\s+(\w+)\s*\(", java)


def _code(java: str) -> str:
    """Java without comments, whitespace, the package line and imports of java_programs."""
    java = re.sub(r"/\*.*?\*/|//[^\n]*", "", java, flags=re.S)
    java = re.sub(
        r"^\s*package\s+[\w.]+\s*;|^\s*import\s+java_programs\.\w+\s*;", "", java, flags=re.M
    )
    return re.sub(r"\s+", "", java)


def test_registered() -> None:
    fmt = formats()["quixbugs-java"]
    assert fmt.read.__module__ == "truepass.families.repair.adapters"
    assert "quixbugs_java.jsonl" in fmt.reads


@needs_data
def test_loads_all_forty(samples: dict[str, RepairSample]) -> None:
    assert len(samples) == 40
    for name, s in samples.items():
        RepairSample.model_validate(s.model_dump())
        assert s.id == f"quixbugs-java-{name}"
        assert s.language == "java" and s.test_command is None and s.leakage == "public-old"
        assert f"java_programs/{name}.java" in s.files
        assert set(s.files) <= {
            f"java_programs/{name}.java",
            "java_programs/Node.java",
            "java_programs/WeightedEdge.java",
        }
        assert f"{TESTS}/{name}_TEST.java" in s.tests.visible
        assert s.fix.startswith(f"--- a/java_programs/{name}.java\n+++ b/java_programs/{name}.java")
        assert len(s.fault) == 1 and s.fault[0].file == f"java_programs/{name}.java"
        assert s.fault[0].lines
        added = [x[1:].strip() for x in s.fix.splitlines() if x.startswith("+") and len(x) > 8]
        assert not [a for a in added if a and a in s.description], name
    assert "java_programs/WeightedEdge.java" in samples["MINIMUM_SPANNING_TREE"].files
    assert "java_programs/Node.java" in samples["BREADTH_FIRST_SEARCH"].files
    assert list(samples["GCD"].files) == ["java_programs/GCD.java"]


@needs_data
def test_content_hash_input_is_stable() -> None:
    assert load_quixbugs_java(DATA)[1] == load_quixbugs_java(DATA)[1]


@needs_data
def test_split_is_disjoint_and_covers_the_upstream_methods(
    samples: dict[str, RepairSample], records: dict[str, dict[str, str]]
) -> None:
    for name, s in samples.items():
        upstream = _methods(records[name]["junit_test"])
        dropped = s.meta["dropped_cases"]
        kept = [m for m in upstream if m not in dropped]  # type: ignore[operator]
        vis_file = f"{TESTS}/{name}_TEST.java"
        hid_file = f"{TESTS}/{name}_HIDDEN_TEST.java"
        vis = _methods(s.tests.visible[vis_file])
        hid = _methods(s.tests.hidden.get(hid_file, ""))
        assert not set(vis) & set(hid), name
        assert sorted(vis + hid) == sorted(kept), name
        assert vis == [kept[i] for i in visible_indices(len(kept), None)] or name in {
            "BREADTH_FIRST_SEARCH",
            "DEPTH_FIRST_SEARCH",
            "DETECT_CYCLE",
            "IS_VALID_PARENTHESIZATION",
            "NEXT_PALINDROME",
        }, name
        assert s.meta["cases"] == len(kept) and s.meta["visible_cases"] == len(vis)
        assert f"public class {name}_TEST " in s.tests.visible[vis_file]
        if hid:
            hidden = s.tests.hidden[hid_file]
            assert hidden.startswith("package java_testcases.junit;")
            assert f"public class {name}_HIDDEN_TEST " in hidden
            assert not re.search(rf"\b{name}_TEST\b", hidden)
        for phase in (s.tests.visible, s.tests.hidden):
            uses = any("QuixFixOracleHelper." in t for p, t in phase.items() if p != HELPER)
            assert (HELPER in phase) == uses, name
    # the buggy program's first failing method is made visible
    assert "test3" in _methods(
        samples["BREADTH_FIRST_SEARCH"].tests.visible[f"{TESTS}/BREADTH_FIRST_SEARCH_TEST.java"]
    )
    gcd = samples["GCD"]
    assert f"{TESTS}/GCD_HIDDEN_TEST.java" in gcd.tests.hidden
    assert _methods(gcd.tests.visible[f"{TESTS}/GCD_TEST.java"]) == ["test_0", "test_1"]


@needs_data
def test_ignored_slow_case_is_dropped(samples: dict[str, RepairSample]) -> None:
    lev = samples["LEVENSHTEIN"]
    assert lev.meta["dropped_cases"] == ["test_3"]
    assert "Ignore" in lev.meta["dropped_why"]["test_3"]  # type: ignore[index]
    text = "".join(lev.test_files.values())
    assert "docnoteidissent" not in text and "Ignore" not in text
    assert [s for s in samples.values() if s.meta["dropped_cases"]] == [lev]


@needs_data
def test_fix_yields_the_correct_program(
    samples: dict[str, RepairSample], records: dict[str, dict[str, str]]
) -> None:
    for name, s in samples.items():
        program = f"java_programs/{name}.java"
        fixed = apply_to_sample(s, Answer(diff=s.fix)).files
        assert set(fixed) == set(s.files)
        assert fixed[program] != s.files[program]
        assert fixed[program].startswith("package java_programs;"), name
        assert _code(fixed[program]) == _code(records[name]["correct_program"]), name
        n_lines = len(s.files[program].splitlines())
        assert all(1 <= n <= n_lines for n in s.fault[0].lines), name


@needs_data
def test_fix_touches_only_the_real_change(samples: dict[str, RepairSample]) -> None:
    """Upstream's correct programs differ in comments, blank lines and imports too: the fix
    leaves those alone."""
    for name, lines in {"GCD": [19], "KTH": [25], "BITCOUNT": [15], "WRAP": [30]}.items():
        s = samples[name]
        assert s.fault[0].lines == lines, name
        assert sum(1 for x in s.fix.splitlines() if x[:1] in "+-") == 3 + (name != "WRAP"), name
    assert "return gcd(b, a%b);" in samples["GCD"].fix
    assert samples["BITCOUNT"].defect_type == "operator"
    assert samples["DETECT_CYCLE"].defect_type == "missing-condition"
    assert "import" not in samples["MINIMUM_SPANNING_TREE"].fix


# ---------------------------------------------------------------- malformed input (no data needed)

_GOOD = {
    "name": "INC",
    "buggy_program": (
        "package java_programs;\n// add one\npublic class INC {\n"
        "    public static int inc(int x) {\n        return x;\n    }\n}\n"
    ),
    "correct_program": (
        "package correct_java_programs;\n\npublic class INC {\n"
        "    public static int inc(int x) {\n        return x + 1;\n    }\n}\n"
    ),
    "junit_test": (
        "package java_testcases.junit;\n\npublic class INC_TEST {\n"
        + "".join(
            f"    @org.junit.Test(timeout = 3000)\n    public void test_{i}() throws "
            f"java.lang.Exception {{\n        org.junit.Assert.assertEquals({i + 1}, "
            f"java_programs.INC.inc({i}));\n    }}\n\n"
            for i in range(4)
        )
        + "    /** ignored */\n    @org.junit.Test(timeout = 40000)\n    @org.junit.Ignore\n"
        '    public void test_4() {\n        String s = "}";\n    }\n}\n'
    ),
}
_SUPPORT = {
    "java_programs/Node.java": "package java_programs;\npublic class Node {}\n",
    "java_programs/WeightedEdge.java": "package java_programs;\npublic class WeightedEdge {}\n",
    "correct_java_programs/Node.java": None,
    HELPER: "package java_testcases.junit;\npublic class QuixFixOracleHelper {}\n",
}


def _write(tmp_path: Path, records: list[object], support: object = None) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    (tmp_path / "quixbugs_java.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "support_files.json").write_text(
        json.dumps(_SUPPORT if support is None else support)
    )
    return tmp_path


def test_small_record(tmp_path: Path) -> None:
    [s], _ = load_quixbugs_java(_write(tmp_path, [_GOOD]))
    assert s.id == "quixbugs-java-INC" and s.defect_type == "off-by-one"
    assert s.fault[0].lines == [5] and s.meta["dropped_cases"] == ["test_4"]
    assert list(s.files) == ["java_programs/INC.java"]
    vis = s.tests.visible[f"{TESTS}/INC_TEST.java"]
    hid = s.tests.hidden[f"{TESTS}/INC_HIDDEN_TEST.java"]
    assert _methods(vis) == ["test_0", "test_1"] and _methods(hid) == ["test_2", "test_3"]
    assert "class INC_HIDDEN_TEST {" in hid and "test_4" not in vis + hid
    fixed = apply_to_sample(s, Answer(diff=s.fix)).files["java_programs/INC.java"]
    assert fixed == _GOOD["buggy_program"].replace("return x;", "return x + 1;")


@pytest.mark.parametrize(
    ("records", "support", "match"),
    [
        ([_GOOD, "{not json"], None, r"quixbugs_java.jsonl:2"),
        ([{**_GOOD, "junit_test": 3}], None, r"quixbugs_java.jsonl:1: field 'junit_test'"),
        ([{**_GOOD, "name": "a-b"}], None, r"quixbugs_java.jsonl:1: field 'name'"),
        ([_GOOD, _GOOD], None, r"quixbugs_java.jsonl:2.*duplicate program 'INC'"),
        (
            [{**_GOOD, "correct_program": _GOOD["buggy_program"]}],
            None,
            r"quixbugs_java.jsonl:1: field 'correct_program'.*does not change",
        ),
        (
            [{**_GOOD, "buggy_program": _GOOD["buggy_program"].replace("class INC", "class X")}],
            None,
            r"field 'buggy_program'.*class INC",
        ),
        (
            [{**_GOOD, "buggy_program": _GOOD["buggy_program"].replace("java_programs", "p")}],
            None,
            r"field 'buggy_program'.*package java_programs",
        ),
        (
            [{**_GOOD, "junit_test": "package java_testcases.junit;\npublic class INC_TEST {}\n"}],
            None,
            r"field 'junit_test'.*no test methods",
        ),
        (
            [{**_GOOD, "junit_test": _GOOD["junit_test"].replace("INC_TEST", "T")}],
            None,
            r"field 'junit_test'.*class INC_TEST",
        ),
        ([_GOOD], {"java_programs/Node.java": ""}, r"support_files.json:1.*WeightedEdge"),
        ([_GOOD], [1], r"support_files.json:1.*path -> file text"),
    ],
)
def test_malformed_input_names_file_line_and_field(
    tmp_path: Path, records: list[object], support: object, match: str
) -> None:
    with pytest.raises(SuiteError, match=match):
        load_quixbugs_java(_write(tmp_path, records, support))


def test_not_a_directory(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="not a directory"):
        load_quixbugs_java(tmp_path / "absent")
    with pytest.raises(SuiteError, match=r"cannot read .*quixbugs_java\.jsonl"):
        load_quixbugs_java(tmp_path)


def test_every_java_program_pairs_with_its_python_program() -> None:
    """compare pairs QuixBugs across languages by meta['program'] (analysis/crosslang.py)."""
    from truepass.analysis.crosslang import program_key
    from truepass.suites.loader import load_suite

    py_dir = DATA.parent / "quixbugs-python"
    if not DATA.is_dir() or not py_dir.is_dir():
        pytest.skip("QuixBugs (Python) not in ../shared/benchmarks")
    java = load_suite(f"quixbugs-java:{DATA}").samples
    python = load_suite(f"quixbugs:{py_dir}").samples
    keys = {program_key(s.id, s.meta) for s in java}
    assert keys == {program_key(s.id, s.meta) for s in python}
    assert len(keys) == 40


def test_upstream_junit_timeouts_are_raised_to_the_python_adapters() -> None:
    from truepass.families.repair.adapters.quixbugs import TIMEOUT_S
    from truepass.suites.loader import load_suite

    if not DATA.is_dir():
        pytest.skip("QuixBugs (Java) not in ../shared/benchmarks")
    for sample in load_suite(f"quixbugs-java:{DATA}").samples:
        for text in {**sample.tests.visible, **sample.tests.hidden}.values():
            for value in re.findall(r"timeout\s*=\s*(\d+)", text):
                assert int(value) >= TIMEOUT_S * 1000, sample.id
