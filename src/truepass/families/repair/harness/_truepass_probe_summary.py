"""Observable summaries of values, for the differential probe (in the sandbox, with
``_truepass_probe``; standard library and the shipped plain values only).

A summary is what a caller can observe of a value: a plain value exactly (tagged, as
``truepass.sandbox.guest.plainvalues`` writes it), else its type name, whether it is callable, its
``__name__``, ``__doc__`` and signature, its length, its first items (all of them for sets and
mappings, which the parent compares in any order), its ``str`` and ``repr`` with addresses
stripped, and the attributes of its ``__dict__``, each summarised in turn (three levels deep).
Nothing here decides anything: the parent compares (``truepass.families.repair.probecompare``).
"""

from __future__ import annotations

import enum
import functools
import hashlib
import inspect
import itertools
import json
import re
import types
from collections.abc import ItemsView, Iterator, KeysView, Mapping, Set
from typing import Any

LIB: dict[str, Any] = {}  # the shipped plain values and harden's values (set by the probe)
SHADOWS: dict[str, str] = {}  # the reference's shadow module names -> the real ones
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{4,16}\b")


class Timeout(BaseException):
    """A replayed call ran out of time (BaseException: ``except Exception`` cannot hide it)."""


def qual(kind: type) -> str:
    return str(getattr(kind, "__qualname__", None) or getattr(kind, "__name__", "?"))


def _plain(value: Any) -> Any:
    """The tagged plain form of ``value``, or raise (TypeError, ValueError, RecursionError)."""
    return LIB["pv"].encode(value)


def input_key(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """What tells two calls apart, without iterating or calling anything of the arguments."""
    return json.dumps(
        [_shallow(a) for a in args] + [[k, _shallow(v)] for k, v in sorted(kwargs.items())]
    )


_SAFE_REPR = ("builtins", "collections", "decimal", "datetime", "fractions", "uuid", "ipaddress")


def _shallow(value: Any, depth: int = 0) -> Any:
    try:
        return ["P", _plain(value)]
    except (TypeError, ValueError, RecursionError):
        pass
    out: list[Any] = ["O", qual(type(value))]
    if isinstance(value, type):
        out.append(qual(value))
    elif type(value).__module__ in _SAFE_REPR:  # deque, Decimal, date ...: the value's repr
        text = _safe(lambda: repr(value))
        out.append(text[:500] if isinstance(text, str) else "")
    elif isinstance(value, enum.Enum):
        out.append(_safe(lambda: value.name))
    state = getattr(value, "__dict__", None)
    if depth < 2 and isinstance(state, dict) and not isinstance(value, type | types.ModuleType):
        out.append([[k, _shallow(v, depth + 1)] for k, v in sorted(state.items())[:30]])
    return out


def _clean(text: str) -> str:
    text = _ADDRESS.sub("0x?", text)
    for shadow, real in SHADOWS.items():
        text = text.replace(shadow, real)
    return text[:300]


ITERATED = 1000  # items read from a generator or an iterator at most
_NO_TEXT = (
    types.FunctionType,
    types.MethodType,
    types.BuiltinFunctionType,
    functools.partial,
    type,
)


def summary(value: Any, depth: int = 0) -> dict[str, Any]:
    """What a caller can observe of ``value`` (plain values exactly)."""
    try:
        encoded = _plain(value)
        text = json.dumps(encoded)
        if len(text) <= 4000:
            return {"k": "plain", "v": encoded}
        digest = hashlib.sha256(LIB["values"].stable_key(value).encode()).hexdigest()[:32]
        return {"k": "big", "t": qual(type(value)), "h": digest}
    except (TypeError, ValueError, RecursionError):
        pass
    s: dict[str, Any] = {"k": "obj", "t": qual(type(value))}
    if depth >= 3:
        return s
    s["callable"] = callable(value)
    for attr in ("__name__", "__doc__"):
        got = _safe(lambda a=attr: getattr(value, a, None))
        if isinstance(got, str):
            s[attr] = got[:500]
    if callable(value):
        sig = _safe(lambda: str(inspect.signature(value)))
        if isinstance(sig, str):
            s["sig"] = _clean(sig)
        s["wrapped"] = _safe(lambda: hasattr(value, "__wrapped__")) is True  # functools.wraps
    if isinstance(value, type | types.ModuleType):
        return s
    dump = getattr(value, "iterdump", None)
    if dump is not None and type(value).__name__ == "Connection":  # a SQLite database
        content = _safe(lambda: "\n".join(dump()))
        if isinstance(content, str):
            s["db"] = hashlib.sha256(content.encode()).hexdigest()[:32]
    if hasattr(type(value), "__len__"):
        n = _safe(lambda: len(value))
        if isinstance(n, int):
            s["len"] = n
    if isinstance(value, Iterator) and not hasattr(type(value), "__len__"):
        # a generator or an iterator: how many items it gives (up to a bound), the first and last
        items = _safe(lambda: list(itertools.islice(value, ITERATED + 1)))
        if isinstance(items, list):
            s["len"] = len(items)
            s["items"] = [summary(i, depth + 1) for i in items[:5] + items[5:][-5:]]
            s["unordered"] = False
    elif hasattr(type(value), "__iter__") and not isinstance(value, _NO_TEXT):
        unordered = isinstance(value, Set | KeysView | ItemsView | Mapping)
        cap = 50 if unordered else 5
        items = _safe(lambda: list(itertools.islice(iter(value), cap + 1)))
        if isinstance(items, list) and not (unordered and len(items) > cap):
            s["items"] = [summary(i, depth + 1) for i in items[:cap]]
            s["unordered"] = unordered
    if not isinstance(value, _NO_TEXT):
        for name, fn in (("str", str), ("repr", repr)):
            text = _safe(lambda f=fn: f(value))
            if isinstance(text, str):
                s[name] = _clean(text)
        state = getattr(value, "__dict__", None)
        if isinstance(state, dict):
            names = sorted(k for k in state if isinstance(k, str) and not k.startswith("__"))
            s["vars"] = {k: summary(state[k], depth + 1) for k in names[:30]}
    return s


def _safe(fn: Any) -> Any:
    try:
        return fn()
    except Timeout:
        raise
    except BaseException:
        return None


def describe(value: Any) -> str:
    """Short text naming an input value, for the witness."""
    try:
        _plain(value)
        return LIB["pv"].safe_repr(value, 120)
    except (TypeError, ValueError, RecursionError):
        pass
    if isinstance(value, type):
        return f"<class {qual(value)}>"
    if isinstance(value, types.FunctionType | types.MethodType):
        return f"<function {getattr(value, '__qualname__', '?')}>"
    if type(value).__repr__ is not object.__repr__:
        text = _safe(lambda: repr(value))
        if isinstance(text, str) and len(text) <= 80:
            return _clean(text)
    state = getattr(value, "__dict__", None)
    shown = []
    if isinstance(state, dict):
        for k, v in list(state.items())[:6]:
            if isinstance(k, str) and not k.startswith("__") and is_plain(v):
                shown.append(f"{k}={LIB['pv'].safe_repr(v, 40)}")
    return f"<{qual(type(value))}{' ' if shown else ''}{' '.join(shown[:4])}>"


def is_plain(value: Any) -> bool:
    try:
        _plain(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def _mutable(value: Any) -> bool:
    """A value a caller could change in place: a list, dict, set or bytearray, or an object
    with its own attributes (not a class, module, function, enum member or frozen dataclass)."""
    if type(value) in (list, dict, set, bytearray):
        return True
    if isinstance(value, type | types.ModuleType | types.FunctionType | enum.Enum):
        return False
    params = getattr(type(value), "__dataclass_params__", None)
    if params is not None and getattr(params, "frozen", False):
        return False
    return isinstance(getattr(value, "__dict__", None), dict)


def _reachable(value: Any, path: str, depth: int, out: dict[int, str]) -> None:
    """Mutable objects reachable from ``value`` (three levels), by id, with their first path."""
    if depth > 3 or len(out) > 300:
        return
    if _mutable(value):
        if id(value) in out:
            return
        out[id(value)] = path
    if type(value) in (list, tuple):
        for i, item in enumerate(value[:20]):
            _reachable(item, f"{path}[{i}]", depth + 1, out)
    elif type(value) is dict:
        for i, key in enumerate(list(value)[:20]):
            _reachable(value[key], f"{path}[{i}]", depth + 1, out)
    elif _mutable(value) and type(value) not in (set, bytearray):
        state = value.__dict__
        for name in sorted(k for k in state if isinstance(k, str) and not k.startswith("__"))[:30]:
            _reachable(state[name], f"{path}.{name}", depth + 1, out)


def shared(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[str]:
    """Where a returned value shares a mutable object with the arguments it was given
    (``result.lines[0] is argument 1.lines[0]``): a caller who changes the one changes the other.
    Paths, sorted; [] when nothing is shared."""
    given: dict[int, str] = {}
    for i, arg in enumerate(args):
        _reachable(arg, f"argument {i}", 0, given)
    for name in sorted(kwargs):
        _reachable(kwargs[name], f"argument {name}", 0, given)
    found: dict[int, str] = {}
    _reachable(value, "the result", 0, found)
    return sorted(f"{path} is {given[key]}" for key, path in found.items() if key in given)[:10]
