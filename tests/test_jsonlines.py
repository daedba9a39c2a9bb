"""JSON Lines input: blank lines skipped, every bad line named by file:line, one message for all
readers (suites, patches, benchmark adapters)."""

from __future__ import annotations

import pytest

from truepass.errors import SuiteError
from truepass.jsonlines import json_lines, json_objects

TEXT = '{"a": 1}\n\n  \n{oops\n[1, 2]\n{"b": 2}\n'


def test_lines_carry_their_number_and_what_is_wrong() -> None:
    got = [(x.lineno, x.where, x.obj, x.problem) for x in json_lines(TEXT, "f.jsonl")]
    assert got[0] == (1, "f.jsonl:1", {"a": 1}, "")
    assert got[1][:3] == (4, "f.jsonl:4", None) and got[1][3].startswith("not valid JSON (")
    assert got[2] == (5, "f.jsonl:5", None, "each line must be a JSON object")
    assert got[3] == (6, "f.jsonl:6", {"b": 2}, "")


def test_objects_stop_at_the_first_bad_line_with_the_callers_error() -> None:
    seen = []
    with pytest.raises(SuiteError, match=r"^f\.jsonl:4: not valid JSON") as info:
        for lineno, _, obj in json_objects(TEXT, "f.jsonl", SuiteError, "record"):
            seen.append((lineno, obj))
    assert seen == [(1, {"a": 1})] and info.value.location == "f.jsonl:4"
    with pytest.raises(SuiteError, match="each record must be a JSON object"):
        list(json_objects("[1]\n", "g.jsonl", SuiteError, "record"))
