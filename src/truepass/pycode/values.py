"""Plain values as test inputs: per-position profiles (the inferred domain), stable text and
keys that do not depend on the hash seed, and the seeded generators of ``truepass harden``."""

from __future__ import annotations

import hashlib
import math
import random
import string
from collections.abc import Iterable
from dataclasses import dataclass, field

from truepass.suites.literals import LiteralError, format_literal, parse_args

MAX_STR = 60
MAX_LEN = 24
MAX_DICT = 12


@dataclass
class Profile:
    """What the visible inputs hold at one position (its inferred domain)."""

    ints: list[int] = field(default_factory=list)
    floats: list[float] = field(default_factory=list)
    chars: set[str] = field(default_factory=set)
    str_lens: list[int] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    values: list[object] = field(default_factory=list)

    @property
    def measured(self) -> bool:
        """Three or more floats seen here: a measured quantity (a grade, a probability), whose
        numbers stay within the observed range."""
        return sum(math.isfinite(f) for f in self.floats) >= 3

    def int_bounds(self) -> tuple[int, int]:
        """(low, high): within the observed sign, and at most twice the largest magnitude."""
        if self.measured:
            low, high = self._observed_range()
            return math.ceil(low), math.floor(high)
        return _bounds(self.ints, 10)  # type: ignore[return-value]

    def float_bounds(self) -> tuple[float, float]:
        if self.measured:
            return self._observed_range()
        return _bounds(self.floats, 10.0)

    def _observed_range(self) -> tuple[float, float]:
        numbers = [v for v in [*self.ints, *self.floats] if math.isfinite(v)]
        return min(numbers), max(numbers)

    @property
    def alphabet(self) -> str:
        return "".join(sorted(self.chars)) or string.ascii_lowercase

    @property
    def max_str(self) -> int:
        return min(MAX_STR, max([*self.str_lens, 4]) * 2)

    @property
    def max_len(self) -> int:
        return min(MAX_LEN, max([*self.lengths, 3]) * 2)


def _bounds(seen: list[int] | list[float], floor: float) -> tuple[float, float]:
    finite = [v for v in seen if math.isfinite(v)]
    top = max(floor, 2 * max([abs(v) for v in finite] + [0]))
    if isinstance(floor, int):
        top = int(top)
    if not finite or min(finite) < 0:
        return -top, top
    return min(finite), top


Profiles = dict[str, Profile]


def profile(inputs: Iterable[list[object]]) -> Profiles:
    """Profiles of every position of these argument lists, keyed by path (``"0"``, ``"0[]"``,
    ``"1{k}"``, ``"1{v}"``, ``"2(1)"`` ...)."""
    out: Profiles = {}
    for args in inputs:
        for i, arg in enumerate(args):
            _observe(out, str(i), arg)
    return out


def _observe(out: Profiles, path: str, value: object) -> None:
    p = out.setdefault(path, Profile())
    if len(p.values) < 64:
        p.values.append(value)
    kind = type(value)
    if kind is int:
        p.ints.append(value)  # type: ignore[arg-type]
    elif kind is float:
        p.floats.append(value)  # type: ignore[arg-type]
    elif kind is str:
        p.chars.update(value)  # type: ignore[arg-type]
        p.str_lens.append(len(value))  # type: ignore[arg-type]
    elif kind in (list, set):
        p.lengths.append(len(value))  # type: ignore[arg-type]
        for item in ordered(value):  # type: ignore[arg-type]
            _observe(out, path + "[]", item)
    elif kind is tuple:
        p.lengths.append(len(value))  # type: ignore[arg-type]
        for j, item in enumerate(value):  # type: ignore[arg-type]
            _observe(out, f"{path}({j})", item)
    elif kind is dict:
        p.lengths.append(len(value))  # type: ignore[arg-type]
        for k, v in value.items():  # type: ignore[attr-defined]
            _observe(out, path + "{k}", k)
            _observe(out, path + "{v}", v)


def ordered(values: Iterable[object]) -> list[object]:
    """The items of a list as they are, of a set in a stable order (by repr, never by hash)."""
    if isinstance(values, set | frozenset):
        return sorted(values, key=repr)
    return list(values)


def stable_key(value: object) -> str:
    """Text naming a plain value exactly and independently of hash seeds (sets sorted)."""
    kind = type(value)
    if kind in (set, frozenset):
        return kind.__name__ + "{" + ",".join(sorted(stable_key(v) for v in value)) + "}"  # type: ignore[attr-defined]
    if kind in (list, tuple):
        inner = ",".join(stable_key(v) for v in value)  # type: ignore[attr-defined]
        return ("[" if kind is list else "(") + inner + ("]" if kind is list else ")")
    if kind is dict:
        items = sorted(f"{stable_key(k)}:{stable_key(v)}" for k, v in value.items())  # type: ignore[attr-defined]
        return "{" + ",".join(items) + "}"
    return f"{kind.__name__}:{value!r}"


def stable_literal(value: object) -> str:
    """Python literal text of a plain value that does not depend on the hash seed: ``repr``,
    except that set members are sorted by their text. Raises :class:`LiteralError` for values
    that are not plain literals (see :func:`truepass.suites.literals.format_literal`)."""
    format_literal(value)
    return _stable(value)


def _stable(value: object) -> str:
    kind = type(value)
    if kind is set:
        return "{" + ", ".join(sorted(_stable(v) for v in value)) + "}" if value else "set()"  # type: ignore[attr-defined]
    if kind is list:
        return "[" + ", ".join(_stable(v) for v in value) + "]"  # type: ignore[attr-defined]
    if kind is tuple:
        inner = ", ".join(_stable(v) for v in value)  # type: ignore[attr-defined]
        return f"({inner},)" if len(value) == 1 else f"({inner})"  # type: ignore[arg-type]
    if kind is dict:
        return "{" + ", ".join(f"{_stable(k)}: {_stable(v)}" for k, v in value.items()) + "}"  # type: ignore[attr-defined]
    return repr(value)


def stable_args(args: Iterable[object]) -> str:
    """Arguments as the text inside a call's parentheses, hash-seed independent."""
    return ", ".join(stable_literal(a) for a in args)


def rng_for(seed: int, key: str) -> random.Random:
    """A generator seeded by ``seed`` and ``key`` alone (stable across processes)."""
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def visible_arguments(cases: Iterable[object]) -> list[list[object]]:
    """Parsed arguments of codegen cases (cases whose text cannot be parsed are skipped)."""
    out = []
    for case in cases:
        try:
            out.append(parse_args(case.args))  # type: ignore[attr-defined]
        except LiteralError:
            continue
    return out
