"""Context trimming by relevance: units, ranking, budgets, elision marks, output truncation."""

from __future__ import annotations

import itertools

from truepass.families.repair.context import (
    called_by_tests,
    rank_units,
    split_all,
    split_units,
    trim_files,
    truncate_middle,
)
from truepass.families.repair.schema import FaultLocation


def words(text: str) -> int:
    """A stand-in tokenizer: one token per whitespace-separated word."""
    return len(text.split())


CHAIN = '''"""A chain of calls: entry -> step -> deeper -> deepest, and an unrelated helper."""

import math


def entry(x):
    return step(x) + 1


def step(x):
    return deeper(x) * 2


def deeper(x):
    return deepest(x) - 3


def deepest(x):
    return math.floor(x)


def unrelated(y):
    return y * y * y * y * y * y
'''

STACK = '''class Stack:
    """A stack."""

    limit = 10

    def __init__(self):
        self.items = []

    # adds on top
    @staticmethod
    def push(self, x):
        self.items.insert(0, x)

    def pop(self):
        return self.items.pop()


def helper():
    return Stack()
'''


def focus(line: int, path: str = "chain.py") -> list[FaultLocation]:
    return [FaultLocation(file=path, lines=[line])]


def test_units_cover_every_line_once() -> None:
    for path, text in (("chain.py", CHAIN), ("stack.py", STACK)):
        units = split_units(path, text)
        owned = sorted(n for u in units for n in u.lines)
        assert owned == list(range(1, len(text.splitlines()) + 1))
    kinds = [(u.kind, u.name) for u in split_units("stack.py", STACK)]
    assert kinds == [
        ("class", "Stack"),
        ("method", "Stack.__init__"),
        ("method", "Stack.push"),
        ("method", "Stack.pop"),
        ("function", "helper"),
    ]
    push = split_units("stack.py", STACK)[2]
    assert push.lines[:3] == [8, 9, 10]  # the gap, comment and decorator above a method


def test_unparsable_and_non_python_files_are_one_unit() -> None:
    assert [u.kind for u in split_units("bad.py", "def f(:\n    pass\n")] == ["file"]
    assert [u.kind for u in split_units("notes.txt", "a\nb\n")] == ["file"]


def test_everything_fits_means_no_change() -> None:
    (out,) = trim_files({"chain.py": CHAIN}, 10_000, words, focus=focus(15))
    assert out.content == CHAIN and out.omitted == 0


def test_focus_kept_within_a_tiny_budget() -> None:
    (out,) = trim_files({"chain.py": CHAIN}, 1, words, focus=focus(15))
    assert "def deeper(x):\n    return deepest(x) - 3\n" in out.content
    assert "def entry" not in out.content and "def unrelated" not in out.content
    assert "# ... 3 other definitions omitted ..." in out.content  # module code, entry, step
    assert "# ... 2 other functions omitted ..." in out.content  # deepest, unrelated


def test_ranking_focus_callers_callees_then_by_distance() -> None:
    units = split_all({"chain.py": CHAIN})
    order = [units[i].name for i in rank_units(units, focus(11), set())]
    # focus step; its caller entry; its callee deeper; then deepest (2 away); the module code
    # (3 away, through math); unrelated last
    assert order == ["step", "entry", "deeper", "deepest", "<module>", "unrelated"]


def test_growing_budget_keeps_a_prefix_of_the_ranking() -> None:
    def kept(budget: int) -> set[str]:
        (out,) = trim_files({"chain.py": CHAIN}, budget, words, focus=focus(11))
        return {
            n
            for n in ("entry", "step", "deeper", "deepest", "unrelated")
            if f"def {n}(" in out.content
        }

    seen = [kept(b) for b in range(0, 90, 2)]
    for smaller, larger in itertools.pairwise(seen):
        assert smaller <= larger
    assert seen[0] == {"step"}
    assert {"step", "entry", "deeper"} in seen
    assert all("unrelated" not in s or "deepest" in s for s in seen)  # farthest goes first


def test_kept_units_stay_in_file_order() -> None:
    (out,) = trim_files({"chain.py": CHAIN}, 40, words, focus=focus(11))
    text = out.content
    assert "def unrelated" not in text
    assert text.index("def entry") < text.index("def step") < text.index("def deeper")


def test_method_focus_keeps_its_class_header() -> None:
    (out,) = trim_files({"stack.py": STACK}, 1, words, focus=focus(12, "stack.py"))
    assert out.content.startswith('class Stack:\n    """A stack."""\n\n    limit = 10\n')
    assert "    # ... 1 other function omitted ...\n" in out.content  # __init__, indented
    assert "def push(self, x):" in out.content and "def pop" not in out.content
    assert out.content.rstrip().endswith("# ... 1 other function omitted ...")  # helper


def test_without_focus_the_failing_tests_callees_come_first() -> None:
    visible = {
        "test_chain.py": (
            "from chain import deepest, entry\n\n\n"
            "def test_entry():\n    assert entry(1) == 5\n\n\n"
            "def test_deepest():\n    assert deepest(1.5) == 1\n"
        )
    }
    output = "FAILED test_chain.py::test_deepest - assert 2 == 1\n1 failed, 1 passed"
    called = called_by_tests(visible, output)
    assert "deepest" in called and "entry" not in called
    (out,) = trim_files({"chain.py": CHAIN}, 1, words, called=called)
    assert "def deepest(x):" in out.content and "def entry" not in out.content
    assert called_by_tests(visible, "no names here") >= {"deepest", "entry"}


def test_truncate_middle_keeps_head_and_tail() -> None:
    text = "".join(f"line {i}\n" for i in range(200))
    short, cut = truncate_middle(text, 40, words)
    assert cut and words(short) <= 40
    assert short.startswith("line 0\n") and short.endswith("line 199\n")
    assert "lines omitted" in short
    assert truncate_middle("short", 10, words) == ("short", False)
    one_line = "x" * 1000
    short, cut = truncate_middle(one_line, 5, lambda s: len(s) // 20)
    assert cut and len(short) // 20 <= 5 and "characters omitted" in short
