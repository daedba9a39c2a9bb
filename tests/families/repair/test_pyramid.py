"""Style consistency and seed 002's pyramid with its composite scores (issue 28, item 1),
against values computed by hand."""

from __future__ import annotations

from typing import Any

import pytest

from truepass.families.repair.pyramid import PROFILES, layers, pyramid_metrics, readability
from truepass.families.repair.style import STYLE, case_of, consistency, style_consistency
from truepass.metrics.quality import PYTHON
from truepass.records import AttemptRecord


@pytest.mark.parametrize(
    ("name", "case"),
    [("unit_cost", "snake_case"), ("unitCost", "camelCase"), ("UnitCost", "PascalCase"),
     ("MAX_SIZE", "UPPER_CASE"), ("total", None), ("_private_x", "snake_case"), ("Node", None)],
)  # fmt: skip
def test_case_of(name: str, case: str | None) -> None:
    assert case_of(name) == case


PY_OLD = 'def total_price(items):\n    unit_cost = 2\n    return "sum"\n'


def test_python_style_by_hand() -> None:
    added = ["    extraCost = unit_cost + 1", "    label = 'x'", "\tshipping_fee = 3"]
    # names new to the file: extraCost (camelCase, the file's names are snake_case: no),
    # shipping_fee (yes); label is one word. Indentation: 4 spaces (yes), 4 (yes), a tab (no).
    # Quotes: the file's one literal is "sum"; 'x' (no). 3 of 6.
    assert consistency(PY_OLD, added, quotes=True, comment="#") == 0.5
    assert consistency(PY_OLD, ["    # only a comment"], quotes=True, comment="#") is None
    # a quote inside the literal excuses the other quote character
    assert consistency(PY_OLD, ["    s = 'say \"hi\"'"], quotes=True, comment="#") == 1.0


JAVA_OLD = (
    "class A {\n    int maxValue = 0;\n    void setMax(int newMax) {\n"
    "        maxValue = newMax;\n    }\n}\n"
)


def test_java_style_by_hand() -> None:
    added = ["        int min_value = 0;", "        int minValue = 1;", "      maxValue = 2;"]
    # new names: min_value (snake_case in a camelCase file: no), minValue (yes);
    # indentation unit 4: 8 (yes), 8 (yes), 6 (no). 3 of 5.
    assert consistency(JAVA_OLD, added, quotes=False, comment="//") == 0.6


def test_style_of_a_diff_weighs_files_by_added_lines() -> None:
    diff = (
        "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,4 @@\n def total_price(items):\n"
        '     unit_cost = 2\n+    extra_cost = 1\n     return "sum"\n'
    )
    assert style_consistency({"m.py": PY_OLD}, diff, ".py", quotes=True, comment="#") == 1.0
    assert style_consistency({"m.py": PY_OLD}, "not a diff", ".py", quotes=True,
                             comment="#") is None  # fmt: skip


def _record(verdict: str, **extra: Any) -> AttemptRecord:
    line = {"suite": "s", "sample_id": "a", "defect_type": "d", "leakage": "private",
            "solver": "x", "attempt": 0, "verdict": verdict} | extra  # fmt: skip
    return AttemptRecord.model_validate(line)


def _quality(before: int, after: int) -> dict[str, Any]:
    return {"lines_added": 1, "lines_removed": 1, "hunks": 1, "files_touched": 1,
            "complexity_before": before, "complexity_after": after, "new_lint": {},
            "inside_fault_function": True}  # fmt: skip


def _where(hit: bool) -> dict[str, Any]:
    return {"hit_file": True, "hit_function": True, "hit_line": hit, "touched": {}}


def test_layers_and_composites_by_hand() -> None:
    a = _record("correct", quality=_quality(2, 2), localisation=_where(True),
                scores={STYLE: 0.5, "same_strategy": 1.0})  # fmt: skip
    b = _record("overfit", quality=_quality(2, 4), localisation=_where(False),
                scores={"same_strategy": 0.0})  # fmt: skip
    c = _record("fails-visible", quality=_quality(2, 2), scores={STYLE: 1.0})
    flagged = _record("correct", flags=["special-cases-input"], quality=_quality(1, 1))
    assert layers(a) == (1.0, 1.0, 0.75, 1.0)  # readability 1, style .5; strategy 1, line 1
    assert layers(b) == pytest.approx((1.0, 0.0, 1 / 3, 0.0))  # two more branches: 1/3
    assert layers(c) == (0.0, 0.0, 0.0, 0.0)  # fails the visible tests: no upper layers
    assert layers(flagged) == (1.0, 0.0, 1.0, 0.0)  # a fake fix is not correct
    assert PROFILES["prototype"] == (0.5, 0.3, 0.1, 0.1)
    got = pyramid_metrics([a, b, c, _record("invalid-sample")])
    # prototype: a .5 + .3 + .075 + .1 = .975; b .5 + 1/30; c 0
    assert got["composite[prototype]"] == round((0.975 + 0.5 + 1 / 30) / 3, 4)
    # production review: a .1 + .3 + .225 + .3 = .925; b .1 + .1; c 0
    assert got["composite[production-review]"] == round((0.925 + 0.2) / 3, 4)
    assert got["layer[3]"] == round((0.75 + 1 / 3) / 3, 4)
    assert got["complexity_delta"] == round(2 / 3, 4)
    low, high = got["composite[prototype]_ci_low"], got["composite[prototype]_ci_high"]
    assert low <= got["composite[prototype]"] <= high
    assert pyramid_metrics([_record("infra-error")]) == {}


def test_only_names_the_patch_binds_are_styled() -> None:
    added = [
        "    try:",
        "        x = int(s)",
        "    except ValueError:",
        "        raise BadInput(s)",
    ]
    # ValueError and Bad are used, not bound (no name item); x is one word; the four
    # lines are indented by multiples of 4: 4 of 4
    assert consistency(PY_OLD, added, quotes=True, comment="#") == 1.0


BUG = "def f(x):\n    return 1 / x\n"
ONE_IF = "def f(x):\n    if x == 0:\n        return None\n    return 1 / x\n"
TWO_IFS = (
    "def f(x):\n    if x == 0:\n        return None\n    if x is None:\n        return None\n"
    "    return 1 / x\n"
)


def test_readability_counts_branches_beyond_the_reference() -> None:
    buggy, ref = {"m.py": BUG}, {"m.py": ONE_IF}
    assert readability(buggy, {"m.py": ONE_IF}, ref, PYTHON) == 1.0  # as many as the reference
    assert readability(buggy, {"m.py": TWO_IFS}, ref, PYTHON) == 0.5  # one more
    assert readability(buggy, {"m.py": TWO_IFS}, buggy, PYTHON) == round(1 / 3, 4)  # two more
    assert readability(buggy, buggy, ref, PYTHON) is None  # no code changed
    fine = _record("correct", quality=_quality(1, 3), scores={"readability": 1.0})
    assert layers(fine)[2] == 1.0  # the score, not the quality delta, when the record has it


def test_weights_of_the_command_line_make_a_custom_composite() -> None:
    from truepass.errors import InputError
    from truepass.families.capabilities import Configured
    from truepass.families.repair.family import RepairFamily

    family = RepairFamily()
    assert isinstance(family, Configured) and family.options() == {}
    a = _record("correct", quality=_quality(2, 2), localisation=_where(True),
                scores={STYLE: 0.5, "same_strategy": 1.0})  # fmt: skip
    b = _record("fails-visible")
    assert "composite[custom]" not in family.metrics([a, b])
    family.configure({"weights": "1,1,0,2"})  # scaled to .25, .25, 0, .5
    assert family.options() == {"weights": "0.25,0.25,0,0.5"}
    # a: .25 + .25 + 0 * .75 + .5 * 1 = 1; b: 0
    assert family.metrics([a, b])["composite[custom]"] == 0.5
    for bad in ("1,2,3", "a,b,c,d", "0,0,0,0", "1,-1,1,1"):
        with pytest.raises(InputError, match="four non-negative numbers"):
            family.configure({"weights": bad})
    with pytest.raises(InputError, match="has no option 'positive'"):
        family.configure({"positive": "correct"})
