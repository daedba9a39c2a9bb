"""The codegen suite format: literals, schema, loader dispatch, answer extraction."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from truepass.errors import SuiteError
from truepass.families.codegen.schema import CodegenSample
from truepass.patches.extract import extract_code, prelude
from truepass.suites.literals import (
    LiteralError,
    format_args,
    format_literal,
    parse_args,
    parse_literal,
)
from truepass.suites.loader import load_suite

PROMPT = 'from typing import List\n\n\ndef total(xs: List[int]) -> int:\n    """Sum of xs."""\n'


def codegen_dict(**over: object) -> dict[str, object]:
    data: dict[str, object] = {
        "family": "codegen",
        "id": "cg-1",
        "prompt": PROMPT,
        "entry_point": "total",
        "canonical_solution": "    return sum(xs)\n",
        "tests": {"visible": [{"args": "[1, 2]", "expected": "3"}], "hidden": [{"args": "[]"}]},
        "source": "written for truepass tests",
        "leakage": "private",
    }
    data.update(over)
    return data


def test_literals_round_trip_exact_types() -> None:
    values = [
        1,
        -2.5,
        math.inf,
        -math.inf,
        "a'b",
        None,
        True,
        (1,),
        [1, (2, 3)],
        {1, 2},
        {"k": [()]},
    ]
    for v in values:
        assert parse_literal(format_literal(v)) == v
        assert type(parse_literal(format_literal(v))) is type(v)
    assert math.isnan(parse_literal("nan"))  # type: ignore[arg-type]
    assert parse_literal("[float('-inf')]") == [-math.inf]
    assert parse_args("[1, 2], 'x'") == [[1, 2], "x"]
    assert parse_args("") == []
    assert format_args([[1, 2], "x"]) == "[1, 2], 'x'"


@pytest.mark.parametrize("text", ["__import__('os')", "x", "1 +", "f(1)", "[i for i in ()]"])
def test_literals_never_run_code(text: str) -> None:
    with pytest.raises(LiteralError):
        parse_literal(text)


def test_parsed_literals_are_fresh_copies_unless_the_caller_only_reads() -> None:
    first = parse_literal("[[1, 2], {'k': [3]}]")
    first[0].append(99)  # type: ignore[index]
    assert parse_literal("[[1, 2], {'k': [3]}]") == [[1, 2], {"k": [3]}]
    shared = parse_literal("[[1, 2], {'k': [3]}]", fresh=False)
    assert shared is parse_literal("[[1, 2], {'k': [3]}]", fresh=False)
    assert shared is not parse_literal("[[1, 2], {'k': [3]}]")
    assert parse_args("[1], 2") == [[1], 2] and parse_args("[1], 2", fresh=False) == [[1], 2]


def test_unplain_values_are_refused() -> None:
    with pytest.raises(LiteralError):
        format_literal(object())


def test_loader_picks_the_family_and_reports_mixtures(tmp_path: Path) -> None:
    path = tmp_path / "cg.jsonl"
    path.write_text(json.dumps(codegen_dict()) + "\n")
    suite = load_suite(path)
    assert suite.family == "codegen"
    sample = suite.samples[0]
    assert isinstance(sample, CodegenSample)
    assert sample.reference_code.endswith("return sum(xs)\n")
    assert sample.tests.visible[0].arguments() == [[1, 2]]

    bad = [
        codegen_dict(),
        codegen_dict(id="cg-2", family="repair"),
        codegen_dict(id="x", family="z"),
    ]
    path.write_text("\n".join(json.dumps(b) for b in bad) + "\n")
    with pytest.raises(SuiteError) as err:
        load_suite(path)
    text = str(err.value)
    assert "cg.jsonl:2: field 'family'" in text and "one family" in text
    assert "cg.jsonl:3: field 'family': unknown family 'z'" in text


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ({"entry_point": "no such"}, "field 'entry_point'"),
        ({"tests": {"visible": []}}, "field 'tests.visible'"),
        ({"tests": {"visible": [{"args": "os.system('x')"}]}}, "field 'tests.visible.0.args'"),
        ({"entry_point": "other"}, "do not define 'other'"),
        ({"atol": -1}, "field 'atol'"),
    ],
)
def test_schema_errors_name_line_and_field(
    tmp_path: Path, override: dict[str, object], expected: str
) -> None:
    path = tmp_path / "cg.jsonl"
    path.write_text(json.dumps(codegen_dict(**override)) + "\n")
    with pytest.raises(SuiteError, match=expected):
        load_suite(path)


def test_prelude_keeps_imports_and_helpers() -> None:
    prompt = "import math\n\n\ndef helper(x):\n    return x\n\n\ndef f(x):\n    '''Doc.'''\n"
    assert prelude(prompt, "f") == "import math\ndef helper(x):\n    return x\n"


@pytest.mark.parametrize(
    ("response", "kind"),
    [
        ("Sure!\n```python\ndef total(xs):\n    return sum(xs)\n```\nIt sums.", "fenced"),
        ("Here:\ndef total(xs):\n    return sum(xs)\nThis works because it adds.", "function"),
        ("    return sum(xs)\n\nExplanation: it sums", "completion"),
    ],
)
def test_extraction_shapes(response: str, kind: str) -> None:
    got = extract_code(response, PROMPT, "total")
    assert got.kind == kind
    assert got.code is not None and "return sum(xs)" in got.code
    assert "from typing import List" in got.code  # the prompt's imports come along
    assert "It sums" not in got.code and "Explanation" not in got.code


def test_extraction_failure_says_why() -> None:
    got = extract_code("```python\ndef other():\n    pass\n```", PROMPT, "total")
    assert got.code is None and got.kind == "none" and "'total'" in got.detail
