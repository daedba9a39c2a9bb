"""Plain values: a tagged JSON form that keeps exact types, and a type-checked equality.

Used on both sides of the execution pool: inside the sandbox (standard library only, no truepass
import: this file is shipped into the sandbox as it is) to serialise what a candidate returned,
and in the trusted parent to decode it and compare it with the expected value.

A plain value is built only from these exact types (subclasses are refused):
``None``, ``bool``, ``int``, ``float`` (nan and infinities included), ``str``, ``list``,
``tuple``, ``dict``, ``set`` and ``frozenset``, nested at most :data:`MAX_DEPTH` deep.

The tagged form is JSON: ``None``, bools, strs and floats are themselves (Python's json keeps
``1`` and ``1.0`` apart and writes nan as ``NaN``); ints beyond 64 bits become ``["I", hex]``;
every container is an array whose first element names its type: ``["L", ...]`` list,
``["T", ...]`` tuple, ``["S", ...]`` set, ``["F", ...]`` frozenset and ``["D", k1, v1, k2, v2,
...]`` dict. A bare JSON array without a known tag is malformed.
"""

from __future__ import annotations

import json
import math
import reprlib
from collections.abc import Callable
from typing import Any

MAX_DEPTH = 100
_SMALL_INT = 1 << 63
_ATOMS = frozenset({str, float, bool, type(None)})  # JSON keeps these exactly as they are
_SCALARS = frozenset({str, float, bool, int, type(None)})
_TAGS = {list: "L", tuple: "T", set: "S", frozenset: "F"}
_BY_TAG: dict[str, Callable[[list[Any]], Any]] = {"L": list, "T": tuple, "S": set, "F": frozenset}


class Unserialisable(TypeError):
    """A value that is not plain: another type, a subclass, or nested too deep."""


def encode(value: object, _depth: int = 0) -> object:
    """The tagged JSON-able form of a plain value; :class:`Unserialisable` otherwise."""
    kind = type(value)
    if value is None or kind is bool or kind is str or kind is float:
        return value
    if kind is int:
        if -_SMALL_INT < value < _SMALL_INT:  # type: ignore[operator]
            return value
        return ["I", hex(value)]  # type: ignore[arg-type]
    if _depth >= MAX_DEPTH:
        raise Unserialisable(f"unserialisable: nested deeper than {MAX_DEPTH}")
    tag = _TAGS.get(kind)
    if tag is not None:
        if _flat(value):  # type: ignore[arg-type]
            return [tag, *value]  # type: ignore[misc]
        return [tag, *[encode(item, _depth + 1) for item in value]]  # type: ignore[attr-defined]
    if kind is dict:
        flat: list[object] = ["D"]
        for key, item in value.items():  # type: ignore[attr-defined]
            flat.append(encode(key, _depth + 1))
            flat.append(encode(item, _depth + 1))
        return flat
    raise Unserialisable(f"unserialisable type {_type_name(kind)}")


def _flat(items: list[Any] | tuple[Any, ...] | set[Any] | frozenset[Any]) -> bool:
    """Whether every item is a scalar JSON keeps exactly (ints within 64 bits): fast path."""
    kinds = set(map(type, items))
    if kinds <= _ATOMS:
        return True
    if kinds - _ATOMS != {int}:
        return False
    ints = items if len(kinds) == 1 else [item for item in items if type(item) is int]
    return min(ints) > -_SMALL_INT and max(ints) < _SMALL_INT


def _type_name(kind: type) -> str:
    module = getattr(kind, "__module__", "")
    name = getattr(kind, "__qualname__", None) or getattr(kind, "__name__", "?")
    return name if module in ("builtins", "", None) else f"{module}.{name}"


def dumps(value: object) -> str:
    """JSON text of :func:`encode` (compact)."""
    return json.dumps(encode(value), separators=(",", ":"))


def decode(data: object, _depth: int = 0) -> Any:
    """The plain value of a tagged form; ``ValueError`` when it is malformed in any way."""
    kind = type(data)
    if data is None or kind is bool or kind is str or kind is float or kind is int:
        return data
    if kind is not list or not data or type(data[0]) is not str:  # type: ignore[index]
        raise ValueError(f"malformed plain value: {kind.__name__}")
    if _depth >= MAX_DEPTH:
        raise ValueError(f"plain value nested deeper than {MAX_DEPTH}")
    tag, items = data[0], data[1:]  # type: ignore[index]
    if tag == "I":
        if len(items) != 1 or type(items[0]) is not str or len(items[0]) > 1 << 20:
            raise ValueError("malformed big int")
        text = items[0]
        digits = text[3:] if text.startswith("-0x") else text[2:] if text.startswith("0x") else ""
        if not digits or not all(c in "0123456789abcdef" for c in digits):
            raise ValueError("malformed big int")
        return int(text, 16)
    if tag == "D":
        if len(items) % 2:
            raise ValueError("malformed dict: odd number of items")
        decoded = [decode(item, _depth + 1) for item in items]
        try:
            return dict(zip(decoded[::2], decoded[1::2], strict=True))
        except TypeError as exc:
            raise ValueError(f"malformed dict key: {exc}") from exc
    make = _BY_TAG.get(tag)
    if make is None:
        raise ValueError(f"unknown tag {tag[:20]!r}")
    try:
        if set(map(type, items)) <= _SCALARS:  # fast path: no nested form
            return make(items)
        return make([decode(item, _depth + 1) for item in items])
    except TypeError as exc:  # an unhashable member of a set
        raise ValueError(f"malformed set: {exc}") from exc


def loads(text: str | bytes) -> Any:
    """Decode JSON text of a tagged form (``ValueError`` when malformed)."""
    try:
        data = json.loads(text)
    except (RecursionError, TypeError) as exc:
        raise ValueError(f"malformed JSON: {exc}") from exc
    return decode(data)


def check_plain(value: object) -> None:
    """Raise :class:`Unserialisable` unless ``value`` is a plain value."""
    encode(value)


def typed_key(value: object) -> object:
    """A hashable key equal only for plain values of the same types and equal contents
    (``1``, ``1.0`` and ``True`` differ; every nan is the same key)."""
    kind = type(value)
    if kind is float:
        return ("float", "nan" if math.isnan(value) else value)  # type: ignore[arg-type]
    if kind in (list, tuple):
        return (kind.__name__, tuple(typed_key(v) for v in value))  # type: ignore[attr-defined]
    if kind in (set, frozenset):
        return (kind.__name__, frozenset(typed_key(v) for v in value))  # type: ignore[attr-defined]
    if kind is dict:
        items = frozenset((typed_key(k), typed_key(v)) for k, v in value.items())  # type: ignore[attr-defined]
        return ("dict", items)
    return (kind.__name__, value)


def plain_equal(
    expected: object,
    got: object,
    *,
    atol: float = 0.0,
    tuple_is_list: bool = False,
    int_is_float: bool = False,
) -> bool:
    """Structural equality of two plain values that checks types at every level.

    ``bool`` never equals ``int``. Floats are equal when both are nan, or equal, or (``atol`` >
    0, both finite) within ``atol``. ``tuple_is_list`` lets a list equal a tuple with equal items
    (Python's ``==``, and so HumanEval and EvalPlus, keeps them apart: the default does too).
    ``int_is_float`` lets an int equal a float of the same value (as Python's ``==`` does).
    Set members and dict keys are matched exactly by :func:`typed_key` (no tolerance).
    """
    return _equal(expected, got, atol, tuple_is_list, int_is_float)


def _equal(a: object, b: object, atol: float, seq: bool, num: bool) -> bool:
    ta, tb = type(a), type(b)
    if ta is not tb:
        if seq and ta in (list, tuple) and tb in (list, tuple):
            return _seq_equal(a, b, atol, seq, num)  # type: ignore[arg-type]
        if num and {ta, tb} == {int, float}:
            return _float_equal(float(a), float(b), atol)  # type: ignore[arg-type]
        return False
    if ta is float:
        return _float_equal(a, b, atol)  # type: ignore[arg-type]
    if ta in (list, tuple):
        return _seq_equal(a, b, atol, seq, num)  # type: ignore[arg-type]
    if ta is dict:
        if len(a) != len(b):  # type: ignore[arg-type]
            return False
        by_key = {typed_key(k): v for k, v in b.items()}  # type: ignore[attr-defined]
        for key, value in a.items():  # type: ignore[attr-defined]
            other = by_key.get(typed_key(key), by_key)
            if other is by_key or not _equal(value, other, atol, seq, num):
                return False
        return True
    if ta in (set, frozenset):
        if len(a) != len(b):  # type: ignore[arg-type]
            return False
        return {typed_key(v) for v in a} == {typed_key(v) for v in b}  # type: ignore[attr-defined]
    return a == b


def _seq_equal(a: list[Any] | tuple[Any, ...], b: list[Any] | tuple[Any, ...], *args: Any) -> bool:
    if len(a) != len(b):
        return False
    kinds = list(map(type, a))
    if set(kinds) <= _SCALARS and kinds == list(map(type, b)) and list(a) == list(b):
        return True  # fast path: same scalar types in order and ==; else compare one by one
    return all(_equal(x, y, *args) for x, y in zip(a, b, strict=True))


def _float_equal(a: float, b: float, atol: float) -> bool:
    if a == b:
        return True
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return atol > 0 and math.isfinite(a) and math.isfinite(b) and abs(a - b) <= atol


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother, _REPR.maxlong = 6, 200, 200, 200
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = _REPR.maxfrozenset = 30


def safe_repr(value: object, limit: int = 400) -> str:
    """A short repr of a plain value that never fails (huge ints, deep nesting)."""
    try:
        text = _REPR.repr(value)
    except (ValueError, RecursionError):
        if type(value) is int:
            return f"<int of {value.bit_length()} bits>"
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
