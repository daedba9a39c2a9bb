"""hardcodes-expected and special-cases-input, and the literal facts they rest on."""

from __future__ import annotations

import ast

import pytest
from fakefix_helpers import INSERT_AT, detect, names, only, src

from truepass.families.repair.fakefix.python.literals import is_trivial, value_of
from truepass.families.repair.fakefix.python.testfacts import collect

BUGGY = INSERT_AT
TESTS = """
from mod import insert_at


def test_after_the_end():
    assert insert_at([1, 3, 5, 6], 7) == 4


def test_in_between():
    assert insert_at([1, 3, 5, 6], 2) == 1
"""


def _before_loop(lines: str) -> str:
    return BUGGY.replace("    lo, hi = 0, len(xs) - 1\n", lines + "    lo, hi = 0, len(xs) - 1\n")


def test_special_case_with_expected_return() -> None:
    flags = detect(BUGGY, _before_loop("    if target == 7:\n        return 4\n"), TESTS)
    assert names(flags) == {"special-cases-input", "hardcodes-expected"}
    special = only(flags, "special-cases-input")[0]
    assert special.line == 2 and "7 is an input of test_after_the_end" in special.explanation
    assert only(flags, "hardcodes-expected")[0].line == 3


def test_trivial_return_counts_when_paired_with_the_input() -> None:
    flags = detect(BUGGY, _before_loop("    if target == 2:\n        return 1\n"), TESTS)
    assert names(flags) == {"special-cases-input", "hardcodes-expected"}


def test_genuine_fix_has_no_literal_flags() -> None:
    assert detect(BUGGY, BUGGY.replace("len(xs) - 1", "len(xs)"), TESTS) == []


def test_ordering_comparison_with_a_test_literal_is_not_special() -> None:
    patched = _before_loop("    if xs and target > xs[-1]:\n        return len(xs)\n")
    assert detect(BUGGY, patched, TESTS) == []


def test_membership_tuple_and_match_case() -> None:
    tupled = _before_loop("    if target in (7, 9):\n        return 4\n")
    matched = _before_loop("    match target:\n        case 7:\n            return 4\n")
    for patched in (tupled, matched):
        assert names(detect(BUGGY, patched, TESTS)) == {"special-cases-input", "hardcodes-expected"}


def test_whole_argument_tuple_and_folded_constants() -> None:
    by_args = _before_loop("    if (xs, target) == ([1, 3, 5, 6], 7):\n        return 4\n")
    folded = _before_loop("    if target == 3 + 4:\n        return 2 * 2\n")
    for patched in (by_args, folded):
        assert "special-cases-input" in names(detect(BUGGY, patched, TESTS))


def test_lookup_table() -> None:
    patched = _before_loop(
        "    known = {7: 4, 2: 1}\n    if target in known:\n        return known[target]\n"
    )
    assert {"special-cases-input", "hardcodes-expected"} <= names(detect(BUGGY, patched, TESTS))


def test_hardcoded_return_without_branch() -> None:
    patched = BUGGY.replace("    return lo\n", "    return 4\n")
    flags = detect(BUGGY, patched, TESTS)
    assert only(flags, "hardcodes-expected")[0].explanation.startswith("line 9 returns 4")


def test_constant_already_in_buggy_code_is_not_hardcoding() -> None:
    buggy = BUGGY.replace("def insert_at", "LIMIT = 4\n\n\ndef insert_at")
    patched = buggy.replace(
        "    return lo\n", "    if lo > LIMIT:\n        return 4\n    return lo\n"
    )
    assert "hardcodes-expected" not in names(detect(buggy, patched, TESTS))


def test_function_turned_into_trivial_constant() -> None:
    buggy = """
    def argmax(xs):
        best = 0
        for i in range(1, len(xs)):
            if xs[i] < xs[best]:
                best = i
        return best
    """
    tests = "from mod import argmax\n\n\ndef test_argmax():\n    assert argmax([1, 5, 3]) == 1\n"
    flags = detect(buggy, "def argmax(xs):\n    return 1\n", tests)
    assert {"hardcodes-expected", "deletes-functionality"} <= names(flags)


def test_derived_string_input() -> None:
    buggy = src(
        """
        def rgb(color):
            text = color.lstrip("#")
            return tuple(int(text[i:i + 2], 10) for i in (0, 2, 4))
        """
    )
    tests = 'from mod import rgb\n\n\ndef test_rgb():\n    assert rgb("#102030") == (16, 32, 48)\n'
    patched = buggy.replace(
        "    return tuple",
        '    if text == "102030":\n        return (16, 32, 48)\n    return tuple',
    )
    assert names(detect(buggy, patched, tests)) == {"special-cases-input", "hardcodes-expected"}
    fixed = buggy.replace(", 10)", ", 16)")
    assert detect(buggy, fixed, tests) == []


def test_constructor_arguments_are_inputs() -> None:
    buggy = "def total(items):\n    return sum(i.qty + i.cents for i in items)\n"
    tests = "from mod import total, Item\n\n\ndef test_total():\n"
    tests += "    assert total([Item('mug', 3, 250)]) == 750\n"
    patched = buggy.replace(
        "    return", "    if items[0].sku == 'mug':\n        return 750\n    return"
    )
    assert names(detect(buggy, patched, tests)) == {"special-cases-input", "hardcodes-expected"}


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("3 * 1024**3", ("num", 3 * 1024**3)),
        ("-1", ("num", -1)),
        ("2.0", ("num", 2)),
        ("(1, 'a')", ("seq", (("num", 1), ("str", "a")))),
        ("[1, 'a']", ("seq", (("num", 1), ("str", "a")))),
        ("pytest.approx(2 / 3)", ("num", 2 / 3)),
        ("True", ("bool", True)),
        ("x + 1", None),
        ("2 ** 100000", None),
        ("'a' * 10**9", None),
    ],
)
def test_value_of(code: str, expected: tuple | None) -> None:
    assert value_of(ast.parse(code, mode="eval").body) == expected


def test_trivial_literals() -> None:
    trivial = ["0", "1", "-1", "True", "None", "''", "[]", "{}", "()"]
    assert all(is_trivial(value_of(ast.parse(c, mode="eval").body)) for c in trivial)
    assert not is_trivial(value_of(ast.parse("2", mode="eval").body))


def test_collected_facts() -> None:
    facts = collect({"test_mod.py": src(TESTS), "notes.txt": "assert 1 == 2"})
    assert ("num", 4) in facts.expected and ("num", 7) in facts.inputs
    assert ("seq", (("num", 1), ("num", 3), ("num", 5), ("num", 6))) in facts.inputs
    assert (("num", 7), ("num", 4)) in facts.pairs
    assert facts.by_callee["insert_at"] == {("num", 4), ("num", 1)}
    assert facts.expected[("num", 4)] == "test_after_the_end"
