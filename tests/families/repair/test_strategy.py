"""Fix strategies (issue 28, item 1: seed 002's layer 4), classified by hand on small Python and
Java changes, and their metrics."""

from __future__ import annotations

import textwrap

import pytest

from truepass.families.repair.javametrics import JAVA
from truepass.families.repair.languages import get
from truepass.families.repair.strategy import (
    SAME_STRATEGY,
    FixStrategy,
    classify,
    python_marked,
    strategy_metrics,
)
from truepass.metrics.quality import PYTHON
from truepass.records import AttemptRecord
from truepass.vocabulary import Verdict

S = FixStrategy

PY = textwrap.dedent(
    """\
    def ratio(a, b):
        return a / b


    def grade(score, floor):
        if score > floor:
            return "pass"
        return "fail"


    def window(xs, n):
        return [xs[i : i + n] for i in range(len(xs) - 1)]
    """
)


def _py(old: str, new: str) -> FixStrategy | None:
    return classify({"m.py": PY}, {"m.py": PY.replace(old, new)}, PYTHON,
                    get("python").strategy_reader())  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # a try around the division
        (
            "    return a / b\n",
            "    try:\n        return a / b\n    except ZeroDivisionError:\n        return None\n",
            S.HANDLE_EXCEPTION,
        ),
        # a guard before it
        (
            "    return a / b\n",
            "    if not b:\n        return None\n    return a / b\n",
            S.ADD_BOUNDARY_CHECK,
        ),
        # a conditional expression is a guard too
        ("    return a / b\n", "    return a / b if b else None\n", S.ADD_BOUNDARY_CHECK),
        # > to >=: one operator for another
        ("if score > floor:", "if score >= floor:", S.CHANGE_OPERATOR),
        # the operand of the test changes, not its operator
        ("if score > floor:", "if score > floor - 1:", S.MODIFY_CONDITION),
        # the computation changes outside any condition
        ("range(len(xs) - 1)", "range(len(xs) - n + 1)", S.ADJUST_ALGORITHM),
        ("return a / b", "return a // b", S.CHANGE_OPERATOR),
        # a comment only: the tree is the same
        ("    return a / b\n", "    return a / b  # divide\n", S.OTHER),
    ],
)
def test_python_strategies(old: str, new: str, expected: FixStrategy) -> None:
    assert old in PY
    assert _py(old, new) is expected


def test_a_comprehension_filter_is_a_guard_and_a_condition() -> None:
    marked = python_marked("ys = [x for x in xs if x]\n") or []
    assert "CompIf" in [label for _, label, _ in marked]
    assert [(label, cond) for _, label, cond in marked][-2:] == [("CompIf", True), ("Name:x", True)]
    src = "def f(xs):\n    return [x[0] for x in xs]\n"
    got = classify({"m.py": src}, {"m.py": src.replace("in xs]", "in xs if x]")}, PYTHON,
                   get("python").strategy_reader())  # fmt: skip
    assert got is S.ADD_BOUNDARY_CHECK


def test_no_code_change_has_no_strategy() -> None:
    assert classify({"m.py": PY}, {"m.py": PY}, PYTHON, get("python").strategy_reader()) is None
    assert classify({"m.py": PY}, {"m.py": "def (:"}, PYTHON, get("python").strategy_reader()) is (
        S.OTHER
    )


JAVA_SRC = textwrap.dedent(
    """\
    public class M {
        static int clamp(int x, int lo, int hi) {
            if (x < lo) {
                return lo;
            }
            return x > hi ? hi : x;
        }

        static int parse(String s) {
            return Integer.parseInt(s);
        }
    }
    """
)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "return Integer.parseInt(s);",
            "try {\n            return Integer.parseInt(s);\n"
            "        } catch (NumberFormatException e) {\n            return 0;\n        }",
            S.HANDLE_EXCEPTION,
        ),
        (
            "return Integer.parseInt(s);",
            "if (s == null) {\n            return 0;\n        }\n"
            "        return Integer.parseInt(s);",
            S.ADD_BOUNDARY_CHECK,
        ),
        ("if (x < lo)", "if (x <= lo)", S.CHANGE_OPERATOR),
        ("if (x < lo)", "if (x < lo + 1)", S.MODIFY_CONDITION),
        ("return lo;", "return hi;", S.ADJUST_ALGORITHM),
    ],
)
def test_java_strategies(old: str, new: str, expected: FixStrategy) -> None:
    assert old in JAVA_SRC
    got = classify({"M.java": JAVA_SRC}, {"M.java": JAVA_SRC.replace(old, new)}, JAVA,
                   get("java").strategy_reader())  # fmt: skip
    assert got is expected


def _record(
    sample: str, defect: str, strategy: FixStrategy | None, same: float | None
) -> AttemptRecord:
    scores = {} if same is None else {SAME_STRATEGY: same}
    line = {"suite": "s", "sample_id": sample, "defect_type": defect, "leakage": "private",
            "solver": "x", "attempt": 0, "verdict": Verdict.CORRECT, "scores": scores,
            "fix_strategy": strategy}  # fmt: skip
    return AttemptRecord.model_validate(line)


def test_strategy_metrics_by_hand() -> None:
    rows = [
        (_record("a", "off-by-one", S.CHANGE_OPERATOR, 1.0), S.CHANGE_OPERATOR),
        (_record("b", "off-by-one", S.ADJUST_ALGORITHM, 0.0), S.ADJUST_ALGORITHM),
        (_record("c", "guard", S.ADD_BOUNDARY_CHECK, 1.0), S.ADD_BOUNDARY_CHECK),
        (_record("d", "guard", S.HANDLE_EXCEPTION, 0.0), S.HANDLE_EXCEPTION),
        (_record("e", "guard", None, None), None),  # changed no code: left out
    ]
    got = strategy_metrics(rows)
    assert got["fix_strategy[change-operator]"] == 0.25
    assert got["fix_strategy[modify-condition]"] == 0.0
    assert got["fix_strategy[off-by-one/change-operator]"] == 0.5
    assert got["fix_strategy[guard/handle-exception]"] == 0.5
    assert "fix_strategy[guard/change-operator]" not in got
    assert got[SAME_STRATEGY] == 0.5
    assert got[f"{SAME_STRATEGY}[guard]"] == 0.5
    assert got[f"{SAME_STRATEGY}_ci_low"] <= 0.5 <= got[f"{SAME_STRATEGY}_ci_high"]
    assert strategy_metrics([]) == {}
