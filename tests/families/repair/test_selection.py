"""Test selection of the hidden phase: related tests first, the rest only if they pass.

The verdict must be the one a run without selection gives; these tests judge the same patches
with selection on and off and compare, besides checking which tests ran first, when the session
stopped, and when the tests keep their own order.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from factories import sample_dict, write_suite

from truepass.answers import Answer
from truepass.families.repair import selection
from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.judge import check_sample, judge
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.selection import (
    MODULE,
    Plan,
    changed_functions,
    coverage_map,
    enabled,
    layout,
    plan,
)
from truepass.judged import JudgeConfig
from truepass.sandbox import Limits
from truepass.vocabulary import Verdict

PRICES = '''"""Prices."""

RATE = 0.2


def discount(price, pct):
    return round(price - price * pct / 10, 2)


def tax(price):
    return round(price * RATE, 2)


def cases():
    return [1, 2, 3]
'''
FIXED = PRICES.replace("pct / 10,", "pct / 100,")
NAMES = """class Slugger:
    sep = "-"

    def slug(self, text):
        return self.sep.join(text.lower().split())
"""
VISIBLE = """from shop.prices import discount


def test_ten_percent():
    assert discount(100, 10) == 90
"""
HIDDEN_PRICES = """import pytest

from shop.prices import cases, discount, tax


@pytest.mark.parametrize("pct", range(10))
def test_discount(pct):
    assert discount(100, pct) == 100 - pct


@pytest.mark.parametrize("price", range(8))
def test_tax(price):
    assert tax(price * 10) == price * 2


@pytest.mark.parametrize("n", cases())
def test_cases(n):
    assert n < 4
"""
HIDDEN_NAMES = """import pytest

from shop.names import Slugger


@pytest.mark.parametrize("word", ["a", "b", "c", "d", "e"])
def test_slug(word):
    assert Slugger().slug(f"{word} X") == f"{word}-x"
"""


def _diff(new: str) -> str:
    from truepass.patches.apply import unified_diff

    return unified_diff({"shop/prices.py": PRICES}, {"shop/prices.py": new})


SAMPLE = RepairSample.model_validate(
    sample_dict(
        id="shop-1",
        files={"shop/__init__.py": "", "shop/prices.py": PRICES, "shop/names.py": NAMES},
        tests={
            "visible": {"conftest.py": "", "tests/test_visible.py": VISIBLE},
            "hidden": {
                "conftest.py": "",
                "tests/test_hidden_prices.py": HIDDEN_PRICES,
                "tests/test_hidden_names.py": HIDDEN_NAMES,
            },
        },
        fix=_diff(FIXED),
        fault=[{"file": "shop/prices.py", "lines": [7]}],
        known_overfit=None,
    )
)
LIMITS = Limits(timeout_s=30)
ON = JudgeConfig(limits=LIMITS, reruns=0, test_selection=True)
OFF = JudgeConfig(limits=LIMITS, reruns=0, test_selection=False)
AUTO = JudgeConfig(limits=LIMITS, reruns=0)
DISCOUNT = [f"tests/test_hidden_prices.py::test_discount[{n}]" for n in range(10)]

PATCHES = {
    "fix": FIXED,
    # passes the visible test, fails hidden discount tests, which run first: the session stops
    "overfit": PRICES.replace(
        "    return round(price - price * pct / 10, 2)",
        "    if pct == 10:\n        return 90\n    return round(price - price * pct / 10, 2)",
    ),
    # fixes discount, but makes the hidden suite collect a new failing test (test_cases[4]),
    # which the suite does not expect and is not related: it runs, fails and does not count,
    # as without selection
    "new-test": FIXED.replace("return [1, 2, 3]", "return [1, 2, 3, 4]"),
    # fixes discount through a new function: the tests run in their own order
    "new-function": FIXED.replace("pct / 100,", "_frac(pct),")
    + "\n\ndef _frac(pct):\n    return pct / 100\n",
    # fixes discount and touches module-level code: the tests run in their own order
    "module-level": FIXED.replace("RATE = 0.2", "RATE = 0.20"),
    # fixes discount and breaks tax (not shown by the visible test): discount and tax tests
    # run first; the first tax test fails and stops the session
    "breaks-tax": FIXED.replace("price * RATE, 2)", "price * RATE, 1) + 0.01"),
}


@pytest.fixture(scope="module")
def check() -> RepairCheck:
    got = check_sample(SAMPLE, ON)
    assert got.valid, got.reason
    assert len(got.hidden_ids) == 26
    return got


def test_check_holds_the_coverage_map(check: RepairCheck) -> None:
    cmap = check.hidden_coverage
    assert cmap is not None and set(cmap) == set(check.hidden_ids)
    assert cmap[DISCOUNT[3]] == ["shop/prices.py::discount"]
    assert cmap["tests/test_hidden_prices.py::test_tax[2]"] == ["shop/prices.py::tax"]
    # cases() runs at collection, outside any test: no test covers it
    assert cmap["tests/test_hidden_prices.py::test_cases[1]"] == []
    assert cmap["tests/test_hidden_names.py::test_slug[a]"] == ["shop/names.py::Slugger.slug"]
    # the check of a run without selection measures nothing
    assert check_sample(SAMPLE, OFF).hidden_coverage is None


@pytest.mark.parametrize("name", sorted(PATCHES))
def test_same_verdict_with_and_without_selection(check: RepairCheck, name: str) -> None:
    answer = Answer(diff=_diff(PATCHES[name]))
    on = judge(SAMPLE, answer, check, ON)
    off = judge(SAMPLE, answer, check, OFF)
    assert on.verdict == off.verdict, (on.details, off.details)
    assert off.hidden is not None and off.hidden.selection is None
    assert on.hidden is not None and on.hidden.selection is not None
    assert on.hidden.ok == off.hidden.ok
    expected_verdict = {
        "fix": Verdict.CORRECT,
        "overfit": Verdict.OVERFIT,
        "new-test": Verdict.CORRECT,
        "new-function": Verdict.CORRECT,
        "module-level": Verdict.CORRECT,
        "breaks-tax": Verdict.OVERFIT,
    }[name]
    assert on.verdict == expected_verdict
    sel = on.hidden.selection
    assert sel.total == 26
    if name in ("fix", "new-test"):
        assert (sel.related, sel.ran, sel.stopped_early, sel.fallback) == (10, 26, False, "")
        assert on.hidden.expected == 26
        assert on.hidden.passed == off.hidden.passed
        assert set(on.hidden.failing) == set(off.hidden.failing)
    elif name in ("overfit", "breaks-tax"):
        # the session stopped at the first related test that failed
        assert sel.related == (10 if name == "overfit" else 18) and sel.stopped_early
        assert sel.ran < sel.related and on.hidden.expected == 26
        assert on.hidden.missing == 0 and on.hidden.failed == 1
        assert set(on.hidden.failing) < set(off.hidden.failing)
    else:
        assert sel.related == 0 and sel.ran == 26 and not sel.stopped_early
        assert sel.fallback.startswith(
            "the patch adds function" if name == "new-function" else "the patch changes module"
        )
        assert on.hidden == off.hidden.model_copy(update={"selection": sel})


def test_default_is_off_however_many_hidden_tests(check: RepairCheck) -> None:
    assert len(check.hidden_ids) > 20
    got = judge(SAMPLE, Answer(diff=SAMPLE.fix), check, AUTO)
    assert got.hidden is not None and got.hidden.selection is None
    assert not enabled(None, check.hidden_ids, pytest=True)
    assert not enabled(True, check.hidden_ids, pytest=False)  # a non-pytest test command
    assert not enabled(True, [], pytest=True)
    assert enabled(True, ["t"], pytest=True) and not enabled(False, check.hidden_ids, True)


def test_map_is_measured_once_when_the_check_lacks_it(
    check: RepairCheck, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    real = selection.from_run
    monkeypatch.setattr(selection, "from_run", lambda *a: calls.append(1) or real(*a))
    selection.CACHE.clear()
    bare = check.model_copy(update={"hidden_coverage": None})
    for _ in range(2):
        got = judge(SAMPLE, Answer(diff=SAMPLE.fix), bare, ON)
        assert got.verdict == Verdict.CORRECT and got.hidden and got.hidden.selection
        assert got.hidden.selection.related == 10
    assert calls == [1]


def test_custom_pytest_command_is_selected_too() -> None:
    sample = SAMPLE.model_copy(update={"test_command": ["python", "-m", "pytest", "-q", "tests"]})
    chk = check_sample(sample, ON)
    assert chk.valid, chk.reason
    for name in ("fix", "overfit"):
        got = judge(sample, Answer(diff=_diff(PATCHES[name])), chk, ON)
        assert got.hidden is not None and got.hidden.selection is not None
        assert got.hidden.selection.related == 10
        assert got.verdict == (Verdict.CORRECT if name == "fix" else Verdict.OVERFIT)


# --- without the sandbox --------------------------------------------------------------------------


def test_layout_owners() -> None:
    lay = layout(PRICES + NAMES.replace("class Slugger", "@dataclass\nclass Slugger"))
    assert lay is not None
    assert lay.owner(1) == MODULE  # module docstring
    assert lay.owner(2) is None  # blank line
    assert lay.owner(3) == MODULE
    assert lay.owner(6) == lay.owner(7) == "discount"
    assert lay.owner(16) == lay.owner(17) == MODULE  # the decorator and header of the class
    assert lay.owner(18) == MODULE  # a class attribute
    assert lay.owner(19) is None
    assert lay.owner(20) == lay.owner(21) == "Slugger.slug"
    assert layout("def (:\n") is None


def test_changed_functions_from_both_sides() -> None:
    before = {"m.py": PRICES}

    def funcs(new: str) -> tuple[set[str], str]:
        return changed_functions(before, {"m.py": new}, ["m.py"])

    assert funcs(FIXED) == ({"m.py::discount"}, "")
    # a line inserted at the end of a function belongs to it, not to the next statement
    grown = PRICES.replace("price * RATE, 2)\n", "price * RATE, 2)\n    # done\n    pass\n")
    assert funcs(grown) == ({"m.py::tax"}, "")
    # a module-level line inserted right after a function is module-level code
    after_fn = PRICES.replace("price * RATE, 2)\n", "price * RATE, 2)\nEXTRA = 1\n")
    assert funcs(after_fn)[1] == "the patch changes module-level code (m.py line 12)"
    # a removed function: its tests are related (and the function before it: on the patched
    # side a deletion counts as the line before it, erring towards running more tests first)
    gone = PRICES.replace("\n\ndef cases():\n    return [1, 2, 3]\n", "")
    assert funcs(gone) == ({"m.py::cases", "m.py::tax"}, "")
    # a blank line between functions changes nothing that runs
    assert funcs(PRICES.replace("\n\ndef tax", "\n\n\ndef tax")) == (set(), "")
    assert changed_functions(before, {**before, "n.py": ""}, ["n.py"])[1] == "the patch adds n.py"
    assert changed_functions(before, {}, ["m.py"])[1] == "the patch deletes m.py"
    data = changed_functions({"d.json": "1"}, {"d.json": "2"}, ["d.json"])
    assert data[1] == "the patch changes d.json, not Python code"


def test_coverage_map_and_plan() -> None:
    files = {"m.py": PRICES, "data.txt": "x"}
    cov = {
        "t::a": {"m.py": [3, 7]},  # module-level line 3 is not counted
        "t::b": {"m.py": [11], "data.txt": [1]},
        "t::c": {},
    }
    cmap = coverage_map(files, cov, ["t::a", "t::b", "t::c"])
    assert cmap == {"t::a": ["m.py::discount"], "t::b": ["m.py::tax"], "t::c": []}
    ids = ["t::a", "t::b", "t::c", "t::d"]  # t::d: the map knows nothing about it
    everyone = {"t::a", "t::b", "t::c", "t::d"}
    fixed = {"m.py": FIXED}
    got = plan(ids, cmap, everyone, {"m.py": PRICES}, fixed, ["m.py"])
    assert got == Plan(["t::a", "t::d"], 4)
    # a test the buggy code fails always runs first
    got = plan(ids, cmap, everyone - {"t::c"}, {"m.py": PRICES}, fixed, ["m.py"])
    assert got.first == ["t::a", "t::c", "t::d"]
    assert plan(ids, None, everyone, {"m.py": PRICES}, fixed, ["m.py"]).fallback.startswith("no")
    # every test unknown: all run first, so the first failure stops the session
    assert plan(ids, {}, everyone, {"m.py": PRICES}, fixed, ["m.py"]) == Plan(ids, 4)
    cases = {"m.py": PRICES.replace("[1, 2, 3]", "[1]")}
    assert plan(ids[:3], cmap, everyone, {"m.py": PRICES}, cases, ["m.py"]).fallback == (
        "no hidden test runs the changed code"
    )


def test_run_option_reaches_the_judge_and_the_results(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from truepass.cli import app

    suite = write_suite(tmp_path / "s.jsonl", [sample_dict()])
    out = tmp_path / "run"
    args = ["run", "--suite", str(suite), "--solver", "oracle", "--reruns", "0", "--out", str(out)]
    got = CliRunner().invoke(app, [*args, "--test-selection"])
    assert got.exit_code == 0, got.output
    (row,) = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert row["verdict"] == "correct"
    assert row["hidden"]["selection"] == {
        "total": 2, "related": 2, "ran": 2, "stopped_early": False, "fallback": ""
    }  # fmt: skip
    assert json.loads((out / "manifest.json").read_text())["judge"]["test_selection"] is True
    # the default (off) leaves the judge setting as it was
    plain = tmp_path / "plain"
    got = CliRunner().invoke(app, [*args[:-1], str(plain)])
    assert got.exit_code == 0, got.output
    assert "test_selection" not in json.loads((plain / "manifest.json").read_text())["judge"]
    (row,) = [json.loads(x) for x in (plain / "results.jsonl").read_text().splitlines()]
    assert row["hidden"]["selection"] is None
