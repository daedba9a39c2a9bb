"""The QuixBugs adapter, on the real benchmark files in ../shared/benchmarks (never copied here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from truepass.checking import SuiteHealth, write_health
from truepass.errors import SuiteError
from truepass.families.repair.adapters.quixbugs import load_quixbugs
from truepass.families.repair.schema import RepairSample

DATA = Path(__file__).parents[3] / "shared" / "benchmarks" / "quixbugs-python"

needs_data = pytest.mark.skipif(
    not (DATA / "quixbugs_python.jsonl").is_file(),
    reason=f"QuixBugs benchmark files not found at {DATA} (see ../shared/benchmarks/README.md)",
)


@pytest.fixture(scope="module")
def samples() -> list[RepairSample]:
    return load_quixbugs(DATA)[0]


@needs_data
def test_loads_all_forty(samples: list[RepairSample]) -> None:
    assert len(samples) == 40
    ids = [s.id for s in samples]
    assert len(set(ids)) == 40
    assert all(i.startswith("quixbugs-") for i in ids)
    for s in samples:
        RepairSample.model_validate(s.model_dump())
        assert s.tests.visible and s.leakage == "public-old" and s.language == "python"
        name = s.id.removeprefix("quixbugs-")
        assert f"python_programs/{name}.py" in s.files
        assert "conftest.py" in s.tests.visible
        assert s.fix.startswith(f"--- a/python_programs/{name}.py")
        assert len(s.fault) == 1 and s.fault[0].lines


@needs_data
def test_content_hash_input_is_stable() -> None:
    assert load_quixbugs(DATA)[1] == load_quixbugs(DATA)[1]


@needs_data
def test_upstream_skipped_cases_are_dropped(samples: list[RepairSample]) -> None:
    by_id = {s.id: s for s in samples}
    assert by_id["quixbugs-knapsack"].meta["dropped_cases"] == [9]
    assert by_id["quixbugs-levenshtein"].meta["dropped_cases"] == [3]
    knap = by_id["quixbugs-knapsack"]
    data = knap.tests.visible["json_testcases/knapsack.json"] + knap.tests.hidden.get(
        "json_testcases/knapsack_hidden.json", ""
    )
    assert "6404180" not in data


@needs_data
def test_split_is_disjoint_and_complete(samples: list[RepairSample]) -> None:
    s = next(x for x in samples if x.id == "quixbugs-bitcount")
    vis = s.tests.visible["json_testcases/bitcount.json"].splitlines()
    hid = s.tests.hidden["json_testcases/bitcount_hidden.json"].splitlines()
    assert len(vis) + len(hid) == 9 and not set(vis) & set(hid)
    assert (
        'load_json_testcases("bitcount_hidden")'
        in s.tests.hidden["python_testcases/test_bitcount_hidden.py"]
    )
    g = next(x for x in samples if x.id == "quixbugs-breadth_first_search")
    assert "def test1" in g.tests.visible["python_testcases/test_breadth_first_search.py"]
    hidden = g.tests.hidden["python_testcases/test_breadth_first_search_hidden.py"]
    assert "def test1" not in hidden and "def test5" in hidden


def _write(tmp_path: Path, records: list[str], support: object | None = None) -> Path:
    (tmp_path / "quixbugs_python.jsonl").write_text("\n".join(records) + "\n")
    if support is None:
        support = {
            "conftest.py": "import pytest\n",
            "python_testcases/load_testdata.py": "",
            "python_testcases/node.py": "",
        }
    (tmp_path / "support_files.json").write_text(json.dumps(support))
    return tmp_path


def test_malformed_line_names_file_and_line(tmp_path: Path) -> None:
    good = json.dumps(
        {
            "name": "inc",
            "buggy_program": "def inc(x):\n    return x\n",
            "correct_program": "def inc(x):\n    return x + 1\n",
            "pytest_file": (
                "import pytest\nfrom load_testdata import load_json_testcases\n"
                "from python_programs.inc import inc\n"
                "testdata = load_json_testcases(inc.__name__)\n"
                "@pytest.mark.parametrize('input_data,expected', testdata)\n"
                "def test_inc(input_data, expected):\n    assert inc(*input_data) == expected\n"
            ),
            "graph_test_program": None,
            "json_testcases": "[[1], 2]\n[[2], 3]\n[[3], 4]\n",
        }
    )
    samples, _ = load_quixbugs(_write(tmp_path, [good]))
    assert samples[0].id == "quixbugs-inc" and samples[0].defect_type == "off-by-one"
    with pytest.raises(SuiteError, match=r"quixbugs_python.jsonl:2"):
        load_quixbugs(_write(tmp_path, [good, "{not json"]))
    with pytest.raises(SuiteError, match=r"quixbugs_python.jsonl:1.*buggy_program"):
        load_quixbugs(_write(tmp_path, [json.dumps({"name": "x", "buggy_program": 3})]))
    with pytest.raises(SuiteError, match=r"support_files.json:1"):
        load_quixbugs(_write(tmp_path, [good], support={"conftest.py": ""}))
    with pytest.raises(SuiteError, match="not a directory"):
        load_quixbugs(tmp_path / "absent")


@pytest.fixture(scope="module")
def health() -> SuiteHealth:
    """check-suite on all 40 samples, once (the slow tests below share it)."""
    from truepass.checking import check_suite
    from truepass.judged import JudgeConfig
    from truepass.suites.loader import load_adapted

    return check_suite(load_adapted("quixbugs", DATA), config=JudgeConfig(reruns=1), jobs=2)


@needs_data
@pytest.mark.slow
def test_check_suite_gate(health: SuiteHealth, tmp_path: Path) -> None:
    """CI gate: every sample valid and sound; the oracle correct and noop failing on all."""
    problems = {s.sample_id: s.problems for s in health.problems}
    assert health.valid == 40 and not problems, problems
    assert all(s.reference == "correct" for s in health.samples)
    assert not [s.sample_id for s in health.samples if s.noop == "correct"]
    assert {s.noop for s in health.samples} <= {"fails-visible", "broken", "timeout"}
    assert health.counts == {
        "samples": 40, "valid": 40, "ok": 40, "invalid": 0, "reference-fails": 0, "flaky": 0,
        "overfit-not-overfit": 0, "infra-error": 0, "environment": 0, "known_overfit": 0,
        "known_overfit_overfit": 0,
    }  # fmt: skip
    json_path, _ = write_health(health, tmp_path)
    assert json.loads(json_path.read_text())["counts"] == health.counts
