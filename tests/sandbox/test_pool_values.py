"""Plain values: the tagged form keeps exact types, decoding is strict, equality checks types."""

from __future__ import annotations

import json
import math

import pytest

from truepass.sandbox.guest.plainvalues import (
    Unserialisable,
    decode,
    dumps,
    encode,
    loads,
    plain_equal,
    safe_repr,
)

VALUES = [
    None, True, False, 0, -5, 2**63, -(2**70), 1.0, -0.0, math.inf, "", "é\ud800", [], (),
    [1, (2, [3])], {1: "a", (1, 2): None, "k": [1]}, {1, 2}, frozenset({(1, 2)}), set(),
    [1, 2**64, -(2**63)], (True, 1, 1.0, "1", None), {1, 2**63}, list(range(1000)),
]  # fmt: skip


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_round_trip_keeps_value_and_types(value: object) -> None:
    back = loads(dumps(value))
    assert type(back) is type(value)
    assert plain_equal(value, back)
    assert repr(back) == repr(value)


def test_nan_round_trips_and_equals_nan() -> None:
    assert math.isnan(loads(dumps(math.nan)))
    assert plain_equal([math.nan], [math.nan])
    assert plain_equal({math.nan}, {float("nan")})


class MyList(list):  # type: ignore[type-arg]
    pass


class AlwaysEqual:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


@pytest.mark.parametrize("value", [MyList([1]), AlwaysEqual(), [AlwaysEqual()], b"x", 1j])
def test_anything_else_is_unserialisable(value: object) -> None:
    with pytest.raises(Unserialisable, match="unserialisable type"):
        encode(value)


def test_self_reference_and_deep_nesting_are_refused() -> None:
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(Unserialisable, match="deeper"):
        encode(loop)
    deep: list[object] = []
    for _ in range(200):
        deep = [deep]
    with pytest.raises(Unserialisable):
        encode(deep)
    with pytest.raises(ValueError):
        loads("[" * 5000 + "]" * 5000)


@pytest.mark.parametrize(
    "text",
    ['["X", 1]', "[1, 2]", "[]", '["I", "12"]', '["I", "0xzz"]', '["D", 1]', '["S", ["L"]]',
     '{"a": 1}', '["D", ["L"], 1]', "not json"],
)  # fmt: skip
def test_malformed_forms_are_rejected(text: str) -> None:
    with pytest.raises(ValueError):
        loads(text)


def test_equality_checks_types_at_every_level() -> None:
    assert not plain_equal(1, True)
    assert not plain_equal([1], [True])
    assert not plain_equal({1: 2}, {True: 2})
    assert not plain_equal({1}, {True})
    assert not plain_equal(1, 1.0)
    assert plain_equal(1, 1.0, int_is_float=True)
    assert not plain_equal(True, 1.0, int_is_float=True)
    assert not plain_equal([1, 2], (1, 2))
    assert plain_equal([1, (2, 3)], ([1, [2, 3]]), tuple_is_list=True)
    assert not plain_equal({"a": 1}, {"a": 1, "b": 2})
    assert plain_equal({"a": [0.1 + 0.2]}, {"a": [0.3]}, atol=1e-9)
    assert not plain_equal(0.1 + 0.2, 0.3)
    assert not plain_equal(math.inf, 1e308, atol=math.inf)
    assert not plain_equal(math.nan, 1.0, atol=10.0)


def test_decoding_never_builds_foreign_objects() -> None:
    data = json.loads(json.dumps(["L", ["T", 1, "x"], ["F"], ["D", "k", None]]))
    assert decode(data) == [(1, "x"), frozenset(), {"k": None}]


def test_safe_repr_never_fails() -> None:
    assert safe_repr(10**5000).startswith("<int of")
    assert len(safe_repr(list(range(10**5)))) < 400
    assert safe_repr("x" * 10_000).endswith("'")


def test_flat_sequences_still_compare_types_item_by_item() -> None:
    assert not plain_equal([1, 2, 3], [1, True, 3])
    assert not plain_equal([1.0, 2.0], [1, 2])
    assert plain_equal([1.0, 2.0], [1, 2], int_is_float=True)
    assert plain_equal([math.nan, 1.0], [float("nan"), 1.0])
    assert plain_equal([0.1 + 0.2, "a"], [0.3, "a"], atol=1e-9)
    assert not plain_equal(["a", None], ["a", False])
