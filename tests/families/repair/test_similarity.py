"""Similarity to the reference fix and exact match (issue 28, item 2), against values computed
by hand on small Python and Java cases."""

from __future__ import annotations

import random
import textwrap

import pytest
from factories import BUGGY, FIXED, sample_dict

from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.family import RepairFamily
from truepass.families.repair.javametrics import JAVA
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.similarity import (
    compare,
    java_labels,
    levenshtein,
    python_labels,
    reference_metrics,
    similarity,
)
from truepass.judged import JudgeConfig
from truepass.metrics.quality import PYTHON
from truepass.records import AttemptRecord
from truepass.vocabulary import Verdict


def test_levenshtein_and_similarity_by_hand() -> None:
    assert levenshtein(list("kitten"), list("sitting")) == 3
    assert levenshtein([], ["a", "b"]) == 2
    assert similarity(list("kitten"), list("sitting")) == round(1 - 3 / 7, 4)
    assert similarity([], []) == 1.0
    assert similarity(["a"], []) == 0.0


def _plain_levenshtein(a: list[str], b: list[str]) -> int:
    """The textbook dynamic programme, cell by cell."""
    previous = list(range(len(b) + 1))
    for i, p in enumerate(a, start=1):
        current = [i]
        for j, q in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (p != q)))
        previous = current
    return previous[-1]


def test_the_row_at_a_time_distance_is_the_textbook_one() -> None:
    rng = random.Random(7)
    for _ in range(200):
        a = [rng.choice("abc") for _ in range(rng.randrange(25))]
        b = [rng.choice("abc") for _ in range(rng.randrange(25))]
        assert levenshtein(a, b) == _plain_levenshtein(a, b), (a, b)


def test_python_labels_are_the_tree_in_pre_order() -> None:
    assert python_labels("x = a + 1  # one more\n") == [
        (0, "Module"), (1, "Assign"), (1, "Name:x"), (1, "BinOp"), (1, "Name:a"), (1, "Add"),
        (1, "Constant:1"),
    ]  # fmt: skip
    assert python_labels("x = (\n") is None


def test_java_labels_leave_comments_out() -> None:
    a = java_labels("class A { int f() { return 1 + 2; } }")
    b = java_labels("class A {\n  // why\n  int f() {\n    return 1 +   2; /* sum */\n  }\n}\n")
    assert a is not None and b is not None
    assert [x for _, x in a] == [x for _, x in b]
    assert ("binary_expression" in [x for _, x in a]) and ("+" in [x for _, x in a])
    assert java_labels("class A { int f( }") is None


def _py(attempt: str, reference: str = FIXED, buggy: str = BUGGY) -> tuple[float | None, bool]:
    return compare({"m.py": buggy}, {"m.py": attempt}, {"m.py": reference}, PYTHON, python_labels)


def test_the_reference_reformatted_and_commented_is_an_exact_match() -> None:
    again = FIXED.replace("    if x > hi:\n", "    if (x > hi):   # too high\n")
    assert _py(again) == (1.0, True)


def test_the_buggy_code_against_the_reference() -> None:
    # clamp's labels (by hand): FunctionDef:clamp arguments arg:x arg:lo arg:hi If Compare Name:x
    # Lt Name:lo Return Name:lo If Compare Name:x Gt Name:hi Return Name:lo Return Name:x = 21;
    # the fix changes one of them (Name:lo -> Name:hi)
    assert _py(BUGGY) == (round(1 - 1 / 21, 4), False)


TWO = "def f(a):\n    return a + 1\n\n\ndef g(b):\n    return b\n"


def test_scopes_either_side_touches_are_compared() -> None:
    reference = TWO.replace("a + 1", "a - 1")
    attempt = TWO.replace("return b", "return -b")
    # f: FunctionDef:f arguments arg:a Return BinOp Name:a Add Constant:1 (8 labels)
    # g: FunctionDef:g arguments arg:b Return Name:b (5); the attempt's g adds UnaryOp USub (7)
    # distance: Add -> Sub, and the two inserted labels = 3, over max(15, 13)
    assert _py(attempt, reference, TWO) == (0.8, False)


def test_an_attempt_that_does_not_parse_has_no_functions() -> None:
    reference = TWO.replace("a + 1", "a - 1")
    broken = TWO.replace("a + 1", "a +")
    # its f is not found, so its region is empty against the reference's 8 labels of f
    assert _py(broken, reference, TWO) == (0.0, False)


JAVA_PATH = "src/Calc.java"
JAVA_SRC = textwrap.dedent(
    """\
    public class Calc {
        public int divide(int a, int b) {
            return a / b;
        }

        public int twice(int a) {
            return a * 2;
        }
    }
    """
)
JAVA_FIX = JAVA_SRC.replace("return a / b;", "return b == 0 ? 0 : a / b;")


def test_java_exact_match_and_similarity() -> None:
    def java(attempt: str) -> tuple[float | None, bool]:
        return compare({JAVA_PATH: JAVA_SRC}, {JAVA_PATH: attempt}, {JAVA_PATH: JAVA_FIX},
                       JAVA, java_labels)  # fmt: skip

    same = JAVA_FIX.replace("return b == 0 ? 0 : a / b;", "return b==0 ? 0 : a/b; // safe")
    assert java(same) == (1.0, True)
    # divide's labels in the buggy code (by hand): method_declaration modifiers public
    # integral_type int identifier:divide formal_parameters ( formal_parameter integral_type int
    # identifier:a , formal_parameter integral_type int identifier:b ) block { return_statement
    # return binary_expression identifier:a / identifier:b ; } = 28; the fix's return holds a
    # ternary_expression binary_expression identifier:b == decimal_integer_literal:0 ?
    # decimal_integer_literal:0 : before the old binary_expression: 8 more labels, 36
    assert java(JAVA_SRC) == (round(1 - 8 / 36, 4), False)


def _record(i: int, verdict: str, scores: dict[str, float]) -> AttemptRecord:
    return AttemptRecord(suite="s", sample_id=f"s{i}", defect_type="d", leakage="private",
                         solver="x", attempt=0, verdict=verdict, scores=scores)  # fmt: skip


def test_the_family_metrics_average_the_scores() -> None:
    records = [
        _record(1, "correct", {"similarity": 1.0, "exact_match": 1.0}),
        _record(2, "fails-visible", {"similarity": 0.5, "exact_match": 0.0}),
        _record(3, "no-patch", {"similarity": 0.9, "exact_match": 0.0}),
        _record(4, "infra-error", {"similarity": 0.0, "exact_match": 0.0}),  # not counted
    ]
    m = reference_metrics(records)
    assert m["similarity"] == 0.8 and m["exact_match"] == round(1 / 3, 4)
    assert m["exact_match_ci_low"] <= m["exact_match"] <= m["exact_match_ci_high"]
    assert RepairFamily().metrics(records)["similarity"] == 0.8


@pytest.mark.parametrize(
    "answer_diff", [None, "--- a/clamp.py\n+++ b/clamp.py\n@@ -1 +1 @@\n-x\n+y\n"]
)
def test_the_judge_scores_code_left_unchanged_against_the_reference(
    answer_diff: str | None,
) -> None:
    """No patch, or one that does not apply, leaves the buggy code: scored as such (no test
    runs for these verdicts)."""
    from truepass.answers import Answer

    sample = RepairSample.model_validate(sample_dict())
    check = RepairCheck(sample_id=sample.id, valid=True)
    answer = None if answer_diff is None else Answer(diff=answer_diff)
    judged = RepairFamily().judge(sample, answer, check, JudgeConfig())
    assert judged.verdict in {Verdict.NO_PATCH, Verdict.APPLY_FAILED}
    assert judged.scores == {"similarity": round(1 - 1 / 21, 4), "exact_match": 0.0}
