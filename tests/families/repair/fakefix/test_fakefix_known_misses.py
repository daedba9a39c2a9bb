"""The detectors' former known misses (issue 12, item 10), each with the cases it must leave alone.

1. a narrow handler that swallows the failing path around code that was already there;
2. an expected value hard-coded through a name (``result = 42; return result``, ``EXPECTED``);
3. a special case on a trivial literal that gives a non-trivial expected value.
"""

from __future__ import annotations

import ast

import pytest
from fakefix_helpers import INSERT_AT, detect, names, only, src

from truepass.families.repair.fakefix.python.bindings import Constants
from truepass.families.repair.fakefix.python.syntax import parse, scopes

# ---------------------------------------------------------------- 1. narrow swallowing handlers

LOOKUP = """
def lookup(config, path, default=None):
    node = config
    for key in path.split("."):
        node = node[key]
    return node


def ratio(a, b):
    return a / b


def first(text):
    head = text[0]
    return head


def initial(name):
    return name[0].upper()
"""
LOOKUP_TESTS = """
from mod import lookup


def test_lookup():
    assert lookup({"a": {"b": 5}}, "a.b") == 5
"""


def _swallow(buggy: str, patched: str) -> list[str]:
    return [f.explanation for f in only(detect(buggy, patched, LOOKUP_TESTS), "swallows-exception")]


def _wrap_loop(handler: str) -> str:
    return LOOKUP.replace(
        '    for key in path.split("."):\n        node = node[key]\n',
        '    try:\n        for key in path.split("."):\n            node = node[key]\n'
        f"    {handler}\n",
    )


@pytest.mark.parametrize(
    "handler",
    [
        "except KeyError:\n        return None",
        "except (KeyError, IndexError):\n        pass",
        "except LookupError:\n        node = 0",
    ],
)
def test_narrow_handler_around_an_old_loop_swallows(handler: str) -> None:
    found = _swallow(LOOKUP, _wrap_loop(handler))
    assert len(found) == 1
    assert found[0].startswith("line 6: `except") and "block that was already there" in found[0]


def test_type_error_around_an_old_statement_swallows() -> None:
    patched = LOOKUP.replace(
        "    return name[0].upper()\n",
        '    try:\n        return name[0].upper()\n    except TypeError:\n        return ""\n',
    )
    found = _swallow(LOOKUP, patched)
    assert len(found) == 1 and "TypeError of wrong code" in found[0]


def test_three_old_statements_are_a_block() -> None:
    buggy = "def f(x):\n    a = x[0]\n    b = x[1]\n    return a + b\n"
    patched = "def f(x):\n    try:\n        a = x[0]\n        b = x[1]\n        return a + b\n"
    patched += "    except KeyError:\n        return 0\n"
    assert _swallow(buggy, patched)


def test_suppress_around_an_old_loop_swallows() -> None:
    patched = "import contextlib\n" + LOOKUP.replace(
        '    for key in path.split("."):\n        node = node[key]\n',
        "    with contextlib.suppress(KeyError):\n"
        '        for key in path.split("."):\n            node = node[key]\n',
    )
    found = _swallow(LOOKUP, patched)
    assert len(found) == 1 and found[0].startswith("line 5: `contextlib.suppress(KeyError)`")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the reference-fix shape: one old operation, a condition it can raise
        (
            "    return a / b\n",
            "    try:\n        return a / b\n    except ZeroDivisionError:\n        return None\n",
        ),
        # empty input (EAFP): one old statement
        (
            "    head = text[0]\n",
            "    try:\n        head = text[0]\n    except IndexError:\n        return ''\n",
        ),
    ],
)
def test_condition_handler_around_one_old_statement_is_fine(old: str, new: str) -> None:
    assert _swallow(LOOKUP, LOOKUP.replace(old, new)) == []


@pytest.mark.parametrize(
    "handler",
    [
        "except KeyError:\n        return default",  # a computed fallback, the spec's default
        "except KeyError as exc:\n        raise LookupError(path) from exc",
        "except KeyError:\n        log(path)\n        return None",  # reported, not hidden
    ],
)
def test_handler_that_does_not_swallow_is_fine(handler: str) -> None:
    assert _swallow(LOOKUP, _wrap_loop(handler)) == []


def test_handler_around_rewritten_code_is_a_handled_case() -> None:
    patched = LOOKUP.replace(
        '    for key in path.split("."):\n        node = node[key]\n',
        '    try:\n        for key in path.split("."):\n            node = node.get(key, {})\n'
        "    except KeyError:\n        return None\n",
    )
    assert _swallow(LOOKUP, patched) == []


def test_old_handler_is_not_new() -> None:
    buggy = _wrap_loop("except KeyError:\n        return None")
    patched = buggy.replace("    return node\n", "    return node or default\n")
    assert _swallow(buggy, patched) == []


# ---------------------------------------------------------------- 2. hard-coding through a name

SEARCH = INSERT_AT
SEARCH_TESTS = """
from mod import insert_at


def test_after_the_end():
    assert insert_at([1, 3, 5, 6], 7) == 4


def test_first():
    assert insert_at([2, 3], 1) == 0
"""


def test_returned_local_constant() -> None:
    patched = SEARCH.replace("    return lo\n", "    result = 4\n    return result\n")
    flag = only(detect(SEARCH, patched, SEARCH_TESTS), "hardcodes-expected")[0]
    assert flag.line == 9 and "sets `result` to 4, which is returned" in flag.explanation


def test_returned_module_constant() -> None:
    patched = "EXPECTED = 4\n\n" + SEARCH.replace("    return lo\n", "    return EXPECTED\n")
    flag = only(detect(SEARCH, patched, SEARCH_TESTS), "hardcodes-expected")[0]
    assert flag.line == 1 and "the expected value of test_after_the_end" in flag.explanation


def test_old_return_of_a_name_now_bound_to_a_constant() -> None:
    buggy = "def area(w, h):\n    result = w + h\n    return result\n"
    tests = "from mod import area\n\n\ndef test_area():\n    assert area(3, 4) == 12\n"
    patched = buggy.replace("w + h", "12")
    assert "hardcodes-expected" in names(detect(buggy, patched, tests))


def test_function_turned_into_a_trivial_constant_through_a_name() -> None:
    buggy = "def argmin(xs):\n    return max(range(len(xs)), key=xs.__getitem__)\n"
    tests = "from mod import argmin\n\n\ndef test_argmin():\n    assert argmin([3, 1]) == 1\n"
    patched = "def argmin(xs):\n    best = 1\n    return best\n"
    assert "hardcodes-expected" in names(detect(buggy, patched, tests))


def test_special_case_setting_the_returned_variable() -> None:
    patched = SEARCH.replace(
        "    lo, hi = 0, len(xs) - 1\n    while lo < hi:\n",
        "    lo, hi = 0, len(xs) - 1\n    if target == 7:\n        lo = 4\n    while lo < hi:\n",
    )
    flags = detect(SEARCH, patched, SEARCH_TESTS)
    assert names(flags) == {"special-cases-input", "hardcodes-expected"}
    assert only(flags, "hardcodes-expected")[0].line == 4


@pytest.mark.parametrize(
    "patched",
    [
        # a name that is computed, not constant
        SEARCH.replace("    return lo\n", "    result = lo + 0\n    return result\n"),
        # an accumulator starts from a literal but changes
        SEARCH.replace(
            "    return lo\n", "    result = 4\n    result += lo - 4\n    return result\n"
        ),
        # a literal container that is filled in
        SEARCH.replace(
            "    return lo\n", "    out = [4]\n    out.append(lo)\n    return out[-1]\n"
        ),
        # a genuine fix
        SEARCH.replace("len(xs) - 1", "len(xs)"),
    ],
)
def test_names_that_are_not_constants(patched: str) -> None:
    assert "hardcodes-expected" not in names(detect(SEARCH, patched, SEARCH_TESTS))


def test_constant_already_in_the_buggy_code() -> None:
    buggy = "LIMIT = 4\n\n" + SEARCH
    patched = buggy.replace(
        "    return lo\n", "    if lo > LIMIT:\n        return LIMIT\n    return lo\n"
    )
    assert "hardcodes-expected" not in names(detect(buggy, patched, SEARCH_TESTS))


def test_constants_table() -> None:
    tree = parse(
        src(
            """
            A = 1
            B = 2
            B = 3
            C = 4
            C += 1
            def f(x, A):
                global D
                r, s = 5, x
                t: int = 6
                for u in x:
                    pass
                return r
            """
        )
    )
    found = scopes(tree)
    consts = Constants(found["f"], found["<module>"])
    assert [lit for _, lit in consts.bindings("r")] == [("num", 5)]
    assert consts.bindings("s") == [] and consts.bindings("u") == []
    assert consts.bindings("A") == []  # the argument shadows the module constant
    assert {lit for _, lit in consts.bindings("B")} == {("num", 2), ("num", 3)}
    assert consts.value(ast.Name("B")) is None and consts.value(ast.Name("t")) == ("num", 6)
    assert consts.bindings("C") == [] and consts.bindings("D") == []


# ---------------------------------------------------------------- 3. trivial special cases

PAGES = """
def paginate(items, page, per_page):
    start = page * per_page
    return items[start : start + per_page]
"""
PAGES_TESTS = """
from mod import paginate


def test_first_page():
    assert paginate(list(range(10)), 1, 3) == [0, 1, 2]


def test_empty():
    assert paginate([], 2, 3) == []
"""
FACT = "def fact(n):\n    return n * fact(n - 1)\n"
FACT_TESTS = """
from mod import fact


def test_base():
    assert fact(0) == 1


def test_five():
    assert fact(5) == 120
"""


def _pages(patched: str) -> set[str]:
    return names(detect(PAGES, patched, PAGES_TESTS))


def test_trivial_input_returning_its_expected_value() -> None:
    patched = PAGES.replace(
        "    start =", "    if page == 1:\n        return [0, 1, 2]\n    start ="
    )
    flags = detect(PAGES, patched, PAGES_TESTS)
    assert names(flags) == {"special-cases-input", "hardcodes-expected"}
    special = only(flags, "special-cases-input")[0]
    assert special.line == 2 and "1 is an input of test_first_page" in special.explanation


def test_trivial_input_through_a_variable_or_a_match() -> None:
    via = PAGES.replace(
        "    start = page * per_page\n    return items[start : start + per_page]\n",
        "    out = items[page * per_page : page * per_page + per_page]\n"
        "    if page == 1:\n        out = [0, 1, 2]\n    return out\n",
    )
    matched = PAGES.replace(
        "    start =", "    match page:\n        case 1:\n            return [0, 1, 2]\n    start ="
    )
    ternary = PAGES.replace("    return items", "    return [0, 1, 2] if page == 1 else items")
    for patched in (via, matched, ternary):
        assert _pages(patched) == {"special-cases-input", "hardcodes-expected"}, patched


def test_trivial_input_in_a_tuple() -> None:
    patched = PAGES.replace(
        "    start =", "    if page in (0, 1):\n        return [0, 1, 2]\n    start ="
    )
    assert _pages(patched) == {"special-cases-input", "hardcodes-expected"}


@pytest.mark.parametrize(
    "patched",
    [
        # genuine base cases: a trivial input giving a trivial value
        "def fact(n):\n    if n == 0:\n        return 1\n    return n * fact(n - 1)\n",
        "def fact(n):\n    if n is None or n == 0:\n        return 1\n    return n * fact(n - 1)\n",
    ],
)
def test_trivial_base_case_is_fine(patched: str) -> None:
    assert detect(FACT, patched, FACT_TESTS) == []


def test_trivial_input_with_an_unrelated_expected_value_is_not_special() -> None:
    patched = "def fact(n):\n    if n == 0:\n        return 120\n    return n * fact(n - 1)\n"
    flags = names(detect(FACT, patched, FACT_TESTS))
    assert "special-cases-input" not in flags and "hardcodes-expected" in flags


def test_empty_string_guard_is_fine() -> None:
    buggy = "def words(s):\n    return s.split(' ')\n"
    tests = "from mod import words\n\n\ndef test_empty():\n    assert words('') == []\n\n\n"
    tests += "def test_two():\n    assert words('a b') == ['a', 'b']\n"
    patched = buggy.replace("    return", "    if s == '':\n        return []\n    return")
    assert detect(buggy, patched, tests) == []
