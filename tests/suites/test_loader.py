from __future__ import annotations

from pathlib import Path

import pytest
from factories import sample_dict, write_suite

from truepass.errors import SuiteError
from truepass.suites.loader import bundled_suites, load_suite


def test_loads_jsonl_with_hash(tmp_path: Path) -> None:
    p = write_suite(tmp_path / "s.jsonl", [sample_dict(), sample_dict(id="clamp-2")])
    suite = load_suite(p)
    assert [s.id for s in suite.samples] == ["clamp-1", "clamp-2"]
    assert suite.name == "s" and len(suite.content_hash) == 64


def test_loads_directory_with_toml(tmp_path: Path) -> None:
    write_suite(tmp_path / "suite.jsonl", [sample_dict()])
    (tmp_path / "suite.toml").write_text('name = "demo"\nversion = "2.1"\ndescription = "d"\n')
    suite = load_suite(tmp_path)
    assert (suite.name, suite.version, suite.description) == ("demo", "2.1", "d")


def _error(tmp_path: Path, lines: list) -> str:  # type: ignore[type-arg]
    p = write_suite(tmp_path / "bad.jsonl", lines)
    with pytest.raises(SuiteError) as info:
        load_suite(p)
    return str(info.value)


def test_reports_file_line_and_field(tmp_path: Path) -> None:
    msg = _error(tmp_path, [sample_dict(), sample_dict(id="x-2", leakage="secret")])
    assert "bad.jsonl:2: field 'leakage'" in msg and "'secret'" in msg


def test_reports_every_problem_at_once(tmp_path: Path) -> None:
    missing = sample_dict(id="x-3")
    del missing["fix"]
    msg = _error(tmp_path, [sample_dict(), "{not json", missing, sample_dict()])
    assert "bad.jsonl:2: not valid JSON" in msg
    assert "bad.jsonl:3: field 'fix': required field is missing" in msg
    assert "bad.jsonl:4: field 'id': duplicate id 'clamp-1' (first on line 1)" in msg


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ({"files": {"../evil.py": "x"}}, "field 'files'"),
        ({"language": "cobol"}, "field 'language'"),
        ({"test_comand": ["pytest"]}, "field 'test_comand': unknown field"),
        ({"fault": [{"file": "nope.py", "lines": [1]}]}, "fault names 'nope.py'"),
        ({"fault": [{"file": "clamp.py", "lines": [99]}]}, "past the end"),
        ({"tests": {"visible": {}, "hidden": {}}}, "field 'tests.visible'"),
        ({"test_command": []}, "field 'test_command'"),
        ({"id": ""}, "field 'id'"),
    ],
)
def test_field_errors(tmp_path: Path, override: dict, expected: str) -> None:  # type: ignore[type-arg]
    assert expected in _error(tmp_path, [sample_dict(**override)])


def test_empty_and_missing(tmp_path: Path) -> None:
    assert "holds no samples" in _error(tmp_path, [])
    with pytest.raises(SuiteError, match="no such suite"):
        load_suite(tmp_path / "absent.jsonl")
    (tmp_path / "d").mkdir()
    with pytest.raises(SuiteError, match=r"must hold suite\.jsonl"):
        load_suite(tmp_path / "d")


def test_bad_toml(tmp_path: Path) -> None:
    write_suite(tmp_path / "suite.jsonl", [sample_dict()])
    (tmp_path / "suite.toml").write_text("name = [unclosed\n")
    with pytest.raises(SuiteError, match=r"suite\.toml: not valid TOML"):
        load_suite(tmp_path)


def test_mini_is_bundled_and_large_enough() -> None:
    assert "mini" in bundled_suites()
    suite = load_suite("mini")
    assert len(suite.samples) >= 40
    assert len({s.defect_type for s in suite.samples}) >= 8
    assert sum(s.known_overfit is not None for s in suite.samples) >= 20
    assert all(s.tests.hidden and s.description and s.fault for s in suite.samples)
