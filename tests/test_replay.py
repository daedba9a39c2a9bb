from __future__ import annotations

import json
from pathlib import Path

import pytest
from factories import FIX, sample_dict, write_suite

from truepass.errors import InputError
from truepass.solvers.kinds.replay import read_patches


def _write(tmp_path: Path, lines: list[object]) -> Path:
    p = tmp_path / "patches.jsonl"
    p.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return p


def test_reads_patches_in_order_with_ids(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        [
            {"sample_id": "a", "id": "p1", "patch": FIX, "model": "ignored"},
            "",
            {"sample_id": "a", "id": 7, "files": {"clamp.py": "x = 1\n"}},
            {"sample_id": "b", "patch": ""},
        ],
    )
    got = read_patches(p, {"a", "b"})
    assert [a.patch_id for a in got["a"]] == ["p1", "7"]
    assert got["a"][1].files == {"clamp.py": "x = 1\n"}
    assert got["b"][0].diff == "" and got["b"][0].patch_id is None


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("{oops", "patches.jsonl:2: not valid JSON"),
        ("[1, 2]", "patches.jsonl:2: each line must be a JSON object"),
        ({"patch": FIX}, "patches.jsonl:2: field 'sample_id'"),
        ({"sample_id": "zzz", "patch": FIX}, "field 'sample_id': no sample 'zzz'"),
        ({"sample_id": "a"}, "field 'patch': give exactly one of"),
        ({"sample_id": "a", "patch": FIX, "files": {}}, "give exactly one"),
        ({"sample_id": "a", "patch": 3}, "field 'patch': must be a string"),
        ({"sample_id": "a", "files": {"x.py": 1}}, "field 'files'"),
        ({"sample_id": "a", "id": [1], "patch": ""}, "field 'id'"),
    ],
)
def test_malformed_line_names_line_and_field(tmp_path: Path, line: object, expected: str) -> None:
    p = _write(tmp_path, [{"sample_id": "a", "patch": FIX}, line])
    with pytest.raises(InputError) as info:
        read_patches(p, {"a"})
    assert expected in str(info.value)


def test_missing_and_empty_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such patches file"):
        read_patches(tmp_path / "none.jsonl")
    with pytest.raises(InputError, match="holds no patches"):
        read_patches(_write(tmp_path, [""]))


def test_a_replayed_answer_kind_the_family_does_not_take_is_refused(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from truepass.cli import app

    suite = write_suite(tmp_path / "s.jsonl", [sample_dict()])
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"sample_id": "clamp-1", "text": "a summary"}) + "\n")
    got = CliRunner().invoke(
        app, ["judge", "--suite", str(suite), "--patches", str(answers), "--out", str(tmp_path)]
    )
    assert got.exit_code == 2
    assert "repair samples take files, patch answers, not text" in " ".join(got.output.split())
