"""The differential check's wider inputs (docs/differential.md, "Generated inputs"): sizes,
holes, text shapes, crossings, pairs, calls built for targets the tests never call, SQLite
receivers and aliasing. The sandbox-side modules are loaded here on our own values only; the
end-to-end cases run the probe in the sandbox on bundled samples."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import sqlite3
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from truepass.answers import Answer
from truepass.families.repair import differential
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.probecompare import same_outcome
from truepass.families.repair.schema import RepairSample
from truepass.pycode import inputs, invariants, values
from truepass.sandbox import Limits
from truepass.sandbox.guest import plainvalues
from truepass.suites.loader import load_suite


@pytest.fixture(scope="module")
def harness() -> Iterator[dict[str, ModuleType]]:
    path = str(differential.probe_harness_dir())
    sys.path.insert(0, path)
    try:
        names = ("_truepass_probe_shapes", "_truepass_probe_inputs", "_truepass_probe_borrow",
                 "_truepass_probe_summary", "_truepass_probe_hypo")  # fmt: skip
        yield {n.rsplit("_", 1)[1]: importlib.import_module(n) for n in names}
    finally:
        sys.path.remove(path)


def _generated(harness: dict[str, ModuleType], calls: list, skip: int = 0, **kw: Any) -> list:
    lib = {"inputs": inputs, "invariants": invariants, "values": values, "pv": plainvalues}
    return harness["inputs"].generate(
        calls, skip, [], lib, lambda a, k: repr((a, sorted(k.items()))), set(),
        seed=0, name="f", cap=400, copier=copy.deepcopy, **kw,
    )  # fmt: skip


def _of(made: list, kind: str) -> list:
    return [args for k, args, _ in made if k == kind]


def test_collections_grow_past_the_recorded_sizes_and_shrink(harness: dict) -> None:
    shapes = harness["shapes"]
    grown = list(shapes.sizes([1, 2, 3]))
    assert [] in grown and [1] in grown
    assert max(len(g) for g in grown) >= shapes.GROW_TO
    assert list(range(1, shapes.GROW_TO + 1)) in grown  # continued by its own step
    assert list(shapes.sizes((1, 2))) == []  # a tuple is a record: its arity stays
    bigger = [d for d in shapes.sizes({"a": 1}) if len(d) > 1]
    assert bigger and all(v == 1 for v in bigger[0].values())


def test_none_and_empties_go_into_containers_unless_the_annotation_excludes_none(
    harness: dict,
) -> None:
    shapes = harness["shapes"]
    assert {"a": None, "b": "x"} in list(shapes.holes({"a": "1", "b": "x"}))
    assert {"a": "", "b": "x"} in list(shapes.holes({"a": "1", "b": "x"}))
    assert [1, None] in list(shapes.holes([1]))
    assert shapes.admits_none("") and shapes.admits_none("dict[str, Any]")
    assert not shapes.admits_none("Mapping[str, str]")
    made = _generated(harness, [(({"PORT": "80"}, "PORT"), {})],
                      declared={0: "Mapping[str, str]", 1: "str"})  # fmt: skip
    holes = _of(made, "hole")
    assert ({"PORT": ""}, "PORT") in holes
    assert all(None not in args[0].values() for args in holes)


def test_structured_text_takes_its_other_shapes(harness: dict) -> None:
    shapes = harness["shapes"]
    assert {"null", "1", "[]", "{}", '[{"a": 1}]'} <= set(shapes.texts('{"a": 1}'))
    assert "{}" in set(shapes.texts("[1, 2]")) and '{"value": 3}' in set(shapes.texts("3"))
    ints = list(shapes.texts("1, 2, x, 3"))
    assert "-1, 2, x, 3" in ints and "1.5, 2, x, 3" in ints and "1,, 2, x, 3" in ints
    assert not any("-" in t for t in shapes.texts("#112345"))  # a code, not a number
    toml = list(shapes.texts('name = "x"\n[server]\nport = 80\n'))
    assert 'name = "x"\nserver = 1' in toml and any("[name]" in t for t in toml)
    lines = list(shapes.texts("a\nb\n"))
    assert "a\r\nb\r\n" in lines and "a\nb" in lines and "a\n\nb\n" in lines


def test_arguments_are_crossed_with_each_other(harness: dict) -> None:
    made = _of(_generated(harness, [((1, 4, 12), {})]), "cross")
    assert (12, 4, 12) in made and (4, 4, 12) in made and (1, 4, 4) in made
    floats = _of(_generated(harness, [((89,), {})], declared={0: "float"}), "cross")
    assert (89.5,) in floats and (88.5,) in floats
    assert _of(_generated(harness, [((89,), {})], declared={0: "int"}), "cross") == []


@dataclasses.dataclass
class Line:
    sku: str
    qty: int


@dataclasses.dataclass
class Order:
    id: str
    lines: list[Line]


@dataclasses.dataclass(frozen=True)
class Promo:
    name: str
    buy: int
    free: int


def test_object_fields_grow_and_take_the_calls_values(harness: dict) -> None:
    order = Order("O1", [Line("A", 5)])
    sized = [args[0] for args in _of(_generated(harness, [((order,), {})], skip=1), "size")]
    assert Order("O1", [Line("A", 5), Line("A", 5)]) in sized  # the same product twice
    assert Order("O1", []) in sized
    promo = Promo("MUGS", 2, 1)
    made = _generated(harness, [((promo, 3), {})])
    assert (Promo("MUGS", 2, 3), 3) in _of(made, "value")  # free units as many as bought
    pairs = _of(made, "pair")
    assert pairs and all(a[0] != promo and a[1] != 3 for a in pairs)


def test_hypothesis_draws_values_of_the_recorded_types(harness: dict) -> None:
    hypo = harness["hypo"]
    assert hypo.available()
    calls = [(([1, 2, 3], "ab"), {"k": True}), (([3, 1], "b"), {"k": False})]
    drawn = hypo.draw(calls, 25)
    assert len(drawn) == 25 and drawn == hypo.draw(calls, 25)  # derandomised
    for (items, text), kwargs in drawn:
        assert type(items) is list and all(type(i) is int and 0 <= i <= 6 for i in items)
        assert len(items) <= 8 and set(text) <= set("abcdefghijklmnopqrstuvwxyz")
        assert kwargs in ({"k": True}, {"k": False})
    assert any(len(items) > 3 for (items, _), _ in drawn)  # past the recorded sizes
    made = _generated(harness, calls, drawn=10)
    assert 0 < len(_of(made, "hypothesis")) <= 10
    assert _of(_generated(harness, calls, drawn=0), "hypothesis") == []


def test_calls_are_built_for_targets_the_tests_never_call(harness: dict) -> None:
    borrow = harness["borrow"].borrow

    class Money:
        def __init__(self, amount: int) -> None:
            self.amount = amount

        def sub(self, other: object) -> Money:
            return Money(self.amount - other.amount)  # type: ignore[attr-defined]

    a, b = Money(9), Money(5)
    calls = borrow(Money.sub, "Money", True, [(["self", "other"], [((a, b), {})])], {})
    assert calls and calls[0] == ((a, b), {})

    def late_fee(invoice: Money, today: str, percent: int = 8) -> int:
        return 0

    donors = [(["invoices", "today"], [(([a, b], "2024-04-15"), {})])]
    built = borrow(late_fee, "", False, donors, {0: "Money", 1: "str", 2: "int"})
    assert ((a, "2024-04-15"), {}) in built and ((b, "2024-04-15"), {}) in built
    assert borrow(Money.sub, "Other", True, [(["x"], [((1,), {})])], {}) == []  # no receiver


def test_results_sharing_parts_with_their_arguments_are_told_apart(harness: dict) -> None:
    shared = harness["summary"].shared
    order = Order("O1", [Line("A", 1)])
    aliased = Order("O2", list(order.lines))
    assert shared(aliased, (None, order), {}) == ["the result.lines[0] is argument 1.lines[0]"]
    assert shared(Order("O2", [Line("A", 1)]), (None, order), {}) == []
    assert shared(Promo("x", 1, 1), (Promo("x", 1, 1),), {}) == []  # frozen: nothing to change
    one = {"ret": {"k": "plain", "v": 1}, "shares": ["the result.lines[0] is argument 1.lines[0]"]}
    assert not same_outcome(one, {"ret": {"k": "plain", "v": 1}, "shares": []})
    assert same_outcome(one, dict(one))


def test_a_sqlite_database_is_summarised_by_its_content(
    harness: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = harness["summary"].LIB  # filled in the sandbox from the shipped engine
    monkeypatch.setitem(lib, "pv", plainvalues)
    monkeypatch.setitem(lib, "values", values)
    summary = harness["summary"].summary
    a, b = sqlite3.connect(":memory:"), sqlite3.connect(":memory:")
    for conn in (a, b):
        conn.execute("CREATE TABLE t (x INTEGER)")
    assert summary(a)["db"] == summary(b)["db"]
    b.execute("INSERT INTO t VALUES (1)")
    assert summary(a)["db"] != summary(b)["db"]


def _check(suite: str, sample_id: str) -> differential.Outcome:
    """The probe on the sample's known_overfit patch with its hidden tests removed."""
    sample = next(s for s in load_suite(suite).samples if s.id == sample_id)
    data = sample.model_dump()
    data["tests"]["hidden"] = {}
    if data["tests"].get("expected"):
        data["tests"]["expected"]["hidden"] = None
    bare = RepairSample(**data)
    assert bare.known_overfit
    code = apply_to_sample(bare, Answer(diff=bare.known_overfit)).files
    return differential.check(bare, code, Limits(timeout_s=60))


@pytest.mark.parametrize(
    ("suite", "sample_id", "witness"),
    [
        ("mini", "mini-018-range-filter", "in_range("),  # x equal to hi: a crossing
        ("project", "orders-reorder-aliasing", "is argument 1.lines[0]"),  # SQLite + aliasing
        ("project", "money-currency-mismatch", "Money.__sub__("),  # a call built from __add__'s
    ],
)
def test_partial_fixes_the_tests_let_through_are_found(
    suite: str, sample_id: str, witness: str
) -> None:
    outcome = _check(suite, sample_id)
    assert outcome.status == "compared", outcome.reason
    assert outcome.witness is not None
    assert witness in outcome.witness.explain()


# The three shapes the issue names, each a sample written here whose partial fix passes every
# test it has and is wrong only on an input the tests never come near, beside a genuine rewrite.
SHAPES = {
    "longer-collection": (
        "def total(items: list[int]) -> int:\n    return sum(items[:5])\n",
        "def total(items: list[int]) -> int:\n    return sum(items)\n",
        "def total(items: list[int]) -> int:\n    return sum(items[:10])\n",
        "def total(items: list[int]) -> int:\n    out = 0\n    for i in items:\n"
        "        out += i\n    return out\n",
        "from mod import total\n\n\ndef test_six():\n"
        "    assert total([1, 2, 3, 4, 5, 6]) == 21\n\n\n"
        "def test_two():\n    assert total([4, 5]) == 9\n",
    ),
    "none-in-a-mapping": (
        "from typing import Any\n\n\ndef set_keys(cfg: dict[str, Any]) -> list[str]:\n"
        "    return sorted(cfg)\n",
        "from typing import Any\n\n\ndef set_keys(cfg: dict[str, Any]) -> list[str]:\n"
        "    return sorted(k for k, v in cfg.items() if v not in (None, ''))\n",
        "from typing import Any\n\n\ndef set_keys(cfg: dict[str, Any]) -> list[str]:\n"
        "    return sorted(k for k, v in cfg.items() if v != '')\n",
        "from typing import Any\n\n\ndef set_keys(cfg: dict[str, Any]) -> list[str]:\n"
        "    return sorted(k for k in cfg if cfg[k] is not None and cfg[k] != '')\n",
        "from mod import set_keys\n\n\ndef test_empty_is_unset():\n"
        "    assert set_keys({'a': '1', 'b': ''}) == ['a']\n",
    ),
    "scalar-json": (
        "import json\n\n\ndef config_keys(text: str) -> list[str]:\n"
        "    return sorted(json.loads(text))\n",
        "import json\n\n\ndef config_keys(text: str) -> list[str]:\n    data = json.loads(text)\n"
        "    return sorted(data) if isinstance(data, dict) else []\n",
        "import json\n\n\ndef config_keys(text: str) -> list[str]:\n"
        "    if text.strip().startswith('['):\n        return []\n"
        "    return sorted(json.loads(text))\n",
        "import json\n\n\ndef config_keys(text: str) -> list[str]:\n    data = json.loads(text)\n"
        "    if not isinstance(data, dict):\n        return []\n    return sorted(data.keys())\n",
        "from mod import config_keys\n\n\ndef test_object():\n"
        "    assert config_keys('{\"b\": 1, \"a\": 2}') == ['a', 'b']\n\n\n"
        "def test_a_list_has_no_keys():\n    assert config_keys('[1, 2]') == []\n",
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_issues_three_shapes_are_found_and_rewrites_pass(shape: str) -> None:
    from truepass.patches.apply import unified_diff

    buggy, fixed, partial, rewrite, tests = SHAPES[shape]
    sample = RepairSample(
        id=shape, language="python", defect_type="wrong-logic", description=shape,
        files={"mod.py": buggy}, tests={"visible": {"test_mod.py": tests}, "hidden": {}},
        fix=unified_diff({"mod.py": buggy}, {"mod.py": fixed}),
        fault=[{"file": "mod.py", "lines": [1]}], source="truepass tests", leakage="private",
    )  # fmt: skip
    found = differential.check(sample, {"mod.py": partial}, Limits(timeout_s=60))
    assert found.status == "compared" and found.witness is not None, found.note()
    same = differential.check(sample, {"mod.py": rewrite}, Limits(timeout_s=60))
    assert same.status == "compared" and same.compared > 0 and same.witness is None, (
        same.witness.explain() if same.witness else same.note()
    )
