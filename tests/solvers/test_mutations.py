"""Mutation operators and fix templates of ``baseline:templates``, on small code strings."""

from __future__ import annotations

import textwrap

import pytest

from truepass.families.repair.solvers.templates import guard_defaults, line_mutants
from truepass.pycode.mutants import render
from truepass.pycode.sourcefile import SourceFile


def mutants(code: str, line: int, op: str, excs: list[str] | None = None) -> list[str]:
    """The rendered texts of one operator's mutants of ``line``."""
    src = SourceFile("m.py", textwrap.dedent(code))
    out = []
    for m in line_mutants(src, line, excs or [], per_op=50):
        if m.operator == op:
            text = render(src, m)
            if text is not None:
                out.append(text)
    return out


def changed(code: str, line: int, op: str, excs: list[str] | None = None) -> list[str]:
    """The mutated line (or lines) of each mutant, for compact assertions."""
    before = textwrap.dedent(code).splitlines()
    out = []
    for text in mutants(code, line, op, excs):
        after = text.splitlines()
        head = 0
        while before[head] == after[head]:
            head += 1
        tail = 0
        while tail < len(before) - head and before[-1 - tail] == after[-1 - tail]:
            tail += 1
        out.append("\n".join(after[head : len(after) - tail]).strip())
    return out


@pytest.mark.parametrize(
    ("code", "op", "expected"),
    [
        ("x = a < b\n", "compare", "x = a <= b"),
        ("x = a < b\n", "compare", "x = a > b"),
        ("x = a == b  # note: < here\n", "compare", "x = a != b  # note: < here"),
        ("x = a is None\n", "compare", "x = a is not None"),
        ("x = a is not None\n", "compare", "x = a is None"),
        ("x = k in d\n", "compare", "x = k not in d"),
        ("x = k not in d\n", "compare", "x = k in d"),
        ("x = 0 < a<b\n", "compare", "x = 0 < a>=b"),
        ("x = a + b\n", "arith", "x = a - b"),
        ("x = (a) * (b)\n", "arith", "x = (a) // (b)"),
        ("x = a // b\n", "arith", "x = a % b"),
        ("x = a % b\n", "arith", "x = a // b"),
        ("x += 2\n", "arith", "x -= 2"),
        ("x += a + b\n", "arith", "x += a * b"),
        ("x += a + b\n", "arith", "x *= a + b"),
        ("x = a and b or c\n", "bool", "x = a and b and c"),
        ("x = a and b\n", "bool", "x = a or b"),
        ("x = max(a, b)\n", "call-swap", "x = min(a, b)"),
        ("x = any(a)\n", "call-swap", "x = all(a)"),
        ("x = y[k]\n", "key-guard", "x = y.get(k)"),
        ("x = f(a)[k]\n", "key-guard", "x = f(a).get(k)"),
    ],
)
def test_expression_operators(code: str, op: str, expected: str) -> None:
    assert expected in changed(code, 1, op)


def test_off_by_one_constants_ranges_slices_indexes() -> None:
    assert changed("x = 10\n", 1, "off-by-one") == ["x = 11", "x = 9"]
    found = changed("for i in range(len(xs) - 1):\n    pass\n", 1, "off-by-one")
    assert "for i in range(len(xs)):" in found
    assert "for i in range(len(xs) - 2):" in found
    assert "for i in range(n + 1):" in changed("for i in range(n):\n    pass\n", 1, "off-by-one")
    found = changed("y = xs[i:j]\n", 1, "off-by-one")
    assert {"y = xs[i + 1:j]", "y = xs[i - 1:j]", "y = xs[i:j + 1]", "y = xs[i:j - 1]"} <= set(
        found
    )
    assert changed("y = xs[a * b]\n", 1, "off-by-one") == ["y = xs[a * b + 1]", "y = xs[a * b - 1]"]
    assert "y = xs[(a or b) + 1]" in changed("y = xs[a or b]\n", 1, "off-by-one")


def test_negate_condition() -> None:
    assert changed("if a > b:\n    pass\n", 1, "negate") == ["if not a > b:"]
    assert changed("if a and b:\n    pass\n", 1, "negate") == ["if not (a and b):"]
    assert changed("while not done:\n    pass\n", 1, "negate") == ["while done:"]
    assert changed("y = [v for v in xs if v]\n", 1, "negate") == ["y = [v for v in xs if not v]"]


def test_constant_tweaks() -> None:
    assert changed("x = True\n", 1, "constant") == ["x = False"]
    code = "def f(a):\n    if a > 3:\n        return 7\n    return 0\n"
    assert changed(code, 2, "constant") == ["if a > 0:", "if a > 7:"]


def test_none_guard_uses_the_functions_other_returns() -> None:
    code = """\
    def f(d, k):
        if k == 0:
            return []
        return d[k].name
    """
    found = changed(code, 4, "none-guard")
    assert found[0] == "if d is None:\n        return []"
    assert "if d is None:\n        return None" in found
    assert "if not k:\n        return []" in found


def test_guard_defaults_guess_the_empty_value_of_the_return_type() -> None:
    src = SourceFile("m.py", "def f(x, y):\n    if y:\n        return y\n    return ''.join(x)\n")
    func = src.tree.body[0]
    assert guard_defaults(src, func) == ["y", '""', "None"]


def test_none_guard_in_a_loop_may_continue() -> None:
    code = """\
    def f(xs):
        for x in xs:
            print(x.name)
    """
    found = changed(code, 3, "none-guard")
    assert found[:2] == [
        "if x is None:\n            return None",
        "if x is None:\n            continue",
    ]
    assert "if x.name is None:\n            continue" in found


def test_try_except_wraps_with_the_seen_exception() -> None:
    code = """\
    def f(a, b):
        return a / b
    """
    found = changed(code, 2, "try-except", ["ZeroDivisionError", "TypeError"])
    assert found[:2] == [
        "try:\n        return a / b\n    except ZeroDivisionError:\n        return 0",
        "try:\n        return a / b\n    except ZeroDivisionError:\n        return None",
    ]
    assert "try:\n        return a / b\n    except TypeError:\n        return 0" in found
    assert changed(code, 2, "try-except", []) == []


def test_var_return_swap_and_remove() -> None:
    code = """\
    def f(a, b):
        c = a
        if b:
            return c
        return b
    """
    assert "c = b" in changed(code, 2, "var-swap")
    assert changed(code, 4, "return-swap") == ["return b"]
    assert changed(code, 2, "remove") == ["pass"]


def test_edits_keep_unrelated_formatting_and_unicode() -> None:
    code = "s = 'héllo'  # ünïcode\nx = a+b   # keep  spacing\n"
    assert mutants(code, 2, "arith")[0] == "s = 'héllo'  # ünïcode\nx = a-b   # keep  spacing\n"


def test_mutants_that_do_not_parse_are_dropped() -> None:
    code = "if a:\n    x = 1\nelif b:\n    x = 2\n"
    assert mutants(code, 3, "remove") == []
    assert mutants(code, 3, "none-guard") == []
    assert "elif not b:" in changed(code, 3, "negate")


def test_multi_line_statement_nodes_belong_to_their_own_line() -> None:
    code = "x = f(\n    a + b,\n    c < d,\n)\n"
    assert changed(code, 3, "compare")[0] == "c <= d,"
    assert changed(code, 3, "arith") == []
    assert "a - b," in changed(code, 1, "arith")


def test_power_shift_value_and_pair_swap() -> None:
    assert "y = (x - m) ** 2" in changed("y = (x - m) * 2\n", 1, "arith")
    code = "def f(t, o):\n    n = t.count(o)\n    return n\n"
    assert changed(code, 2, "shift-value") == ["n = t.count(o) + 1", "n = t.count(o) - 1"]
    assert changed(code, 3, "shift-value") == ["return n + 1", "return n - 1"]
    code = "def f(rows, cols):\n    return [[0] * cols for _ in range(rows)]\n"
    assert changed(code, 2, "swap-pair") == ["return [[0] * rows for _ in range(cols)]"]


def test_attribute_swap_uses_attributes_of_the_same_base() -> None:
    code = """\
    def f(item, other):
        if item.low < other.size:
            return item.high - item.low
    """
    assert changed(code, 3, "attr-swap") == [
        "return item.low - item.low",
        "return item.high - item.high",
    ]


def test_comprehension_guard_and_parameter_returns() -> None:
    code = """\
    def f(parts, default):
        return "".join(p[0] for p in parts)
    """
    found = changed(code, 2, "none-guard")
    assert found[:2] == [
        'return "".join(p[0] for p in parts if p is not None)',
        'return "".join(p[0] for p in parts if p)',
    ]
    assert "if parts is None:\n        return default" in found
