from __future__ import annotations

import json
from pathlib import Path

import pytest
from factories import FIX, sample_dict, write_suite

from truepass.answers import Answer
from truepass.errors import InputError
from truepass.solvers.kinds.replay import read_answers
from truepass.vocabulary import AnswerKind


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
    (name, got), *others = read_answers(p, {"a", "b"}).items()
    assert name == f"replay:{p}" and not others
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
        read_answers(p, {"a"})
    assert expected in str(info.value)


def test_missing_and_empty_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such patches file"):
        read_answers(tmp_path / "none.jsonl")
    with pytest.raises(InputError, match="holds no patches"):
        read_answers(_write(tmp_path, [""]))


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


PRED = {"model_name_or_path": "model-a", "model_patch": FIX}


def _shapes(tmp_path: Path, records: list[dict[str, object]]) -> dict[str, Path]:
    """The same predictions as JSONL, a JSON list and a preds.json keyed by instance id."""
    jsonl, listed, keyed = tmp_path / "p.jsonl", tmp_path / "p.json", tmp_path / "preds.json"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records))
    listed.write_text(json.dumps(records, indent=1))
    by_id = {r["instance_id"]: {k: v for k, v in r.items() if k != "instance_id"} for r in records}
    keyed.write_text(json.dumps(by_id))
    return {"jsonl": jsonl, "list": listed, "keyed": keyed}


def _plain(found: dict[str, dict[str, list[Answer]]]) -> dict[str, dict[str, list[object]]]:
    return {
        solver: {s: [(a.kind, a.diff) for a in answers] for s, answers in by_sample.items()}
        for solver, by_sample in found.items()
    }


def test_swebench_predictions_are_read_in_all_three_shapes(tmp_path: Path) -> None:
    records = [
        {"instance_id": "a", **PRED},
        {"instance_id": "b", "model_name_or_path": "model-a", "model_patch": ""},
    ]
    got = [_plain(read_answers(p, {"a", "b"})) for p in _shapes(tmp_path, records).values()]
    assert (
        got[0]
        == got[1]
        == got[2]
        == {"model-a": {"a": [(AnswerKind.PATCH, FIX)], "b": [(AnswerKind.NONE, None)]}}
    )


def test_each_model_of_a_predictions_file_is_a_solver(tmp_path: Path) -> None:
    p = _write(tmp_path, [{"instance_id": "a", **PRED},
                          {"instance_id": "a", "model_name_or_path": "model-b",
                           "model_patch": None}])  # fmt: skip
    found = read_answers(p, {"a"})
    assert sorted(found) == ["model-a", "model-b"]
    assert found["model-b"]["a"][0].no_patch


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            json.dumps({"instance_id": "a", "model_patch": FIX}) + "\n",
            "patches.jsonl:1: field 'model_name_or_path'",
        ),
        (json.dumps({"instance_id": "zzz", **PRED}) + "\n", "field 'instance_id': no sample 'zzz'"),
        (
            json.dumps({"instance_id": "a", "model_name_or_path": "m", "model_patch": 3}) + "\n",
            "field 'model_patch': must be a string",
        ),
        (json.dumps([{"instance_id": "a", **PRED}, 5]), "item 1: each item must be a JSON object"),
        (json.dumps({"a": {"instance_id": "b", **PRED}}), "key 'a': field 'instance_id'"),
    ],
)
def test_a_malformed_prediction_names_its_place_and_field(
    tmp_path: Path, text: str, expected: str
) -> None:
    p = tmp_path / "patches.jsonl"
    p.write_text(text)
    with pytest.raises(InputError) as info:
        read_answers(p, {"a", "b"})
    assert expected in str(info.value)


def test_predictions_of_two_models_are_judged_as_they_are_and_compared(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from truepass.cli import app

    suite = write_suite(tmp_path / "s.jsonl", [sample_dict()])
    one = _shapes(tmp_path, [{"instance_id": "clamp-1", **PRED}])["keyed"]
    other = tmp_path / "other.json"
    other.write_text(json.dumps([{"instance_id": "clamp-1", "model_name_or_path": "model-b",
                                  "model_patch": ""}]))  # fmt: skip
    out = tmp_path / "run"
    args = ["judge", "--suite", str(suite), "--patches", str(one), "--patches", str(other)]
    got = CliRunner().invoke(app, [*args, "--out", str(out), "--reruns", "0"])
    assert got.exit_code == 0, got.output
    records = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert {(r["solver"], r["verdict"]) for r in records} == {
        ("model-a", "correct"),
        ("model-b", "no-patch"),
    }
    compared = CliRunner().invoke(app, ["compare", str(out), "--bootstrap", "200"])
    assert compared.exit_code == 0, compared.output
    assert "model-a" in compared.output and "model-b" in compared.output
