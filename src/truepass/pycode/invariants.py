"""Likely invariants of a problem's inputs, learned from the visible ones (the Daikon idea).

A generated input is only fair if the problem accepts it: a correct solution may do anything on
an input its docstring rules out ("a string of balanced groups", "a sorted list", "words
separated by single spaces"), so a hidden test there would fail correct solutions. Without the
hand-written contracts EvalPlus has, truepass keeps only generated inputs that satisfy every
property that holds on *all* visible inputs at the same position (and was seen often enough to
be more than chance). Being too strict only costs some inputs; being too lax costs fairness.

Properties checked, per position (see :mod:`truepass.pycode.inputs` for positions and the sign,
alphabet and tuple-length rules applied while generating):

* strings, lists, dicts and sets: ``non-empty`` (when three or more visible values are);
* strings: ``balanced`` (every bracket pair present is balanced and well nested),
  ``balanced-words`` (so is every space-separated word), ``letters-words`` (every
  space-separated word is one character), ``spacing`` (no leading, trailing or doubled spaces);
* lists: ``two-or-more`` items (when three or more visible lists have them, as in "a list of
  at least two numbers"), ``sorted`` (non-decreasing) or ``sorted-desc``, ``distinct`` (no
  repeated element), ``rectangular`` and ``square`` (lists of rows), ``permutation`` (the
  items, flattened, are 1..n);
* tuples: ``ascending`` (numbers in non-decreasing order, as a ``(start, end)`` interval's are;
  when three or more visible tuples of two or more items are);
* ints: ``prime``, ``composite``.

The empty inputs the generator makes on purpose are dropped where ``non-empty`` holds: "the
list is never empty" is a precondition more often than a case to handle.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from truepass.pycode.values import ordered, stable_key

_PAIRS = ("()", "[]", "{}", "<>")


def balanced(text: str) -> bool:
    """Every bracket pair present in ``text`` is balanced and well nested."""
    closing = {p[1]: p[0] for p in _PAIRS}
    stack: list[str] = []
    for c in text:
        if c in "([{<":
            stack.append(c)
        elif c in closing and (not stack or stack.pop() != closing[c]):
            return False
    return not stack


def single_spaced(text: str) -> bool:
    """No leading, trailing or doubled spaces."""
    return not (text.startswith(" ") or text.endswith(" ") or "  " in text)


def _is_sorted(items: list[Any], reverse: bool = False) -> bool:
    try:
        return all((b <= a) if reverse else (a <= b) for a, b in itertools.pairwise(items))
    except TypeError:
        return False


def _ascending(items: tuple[Any, ...]) -> bool:
    """Numbers (not booleans) in non-decreasing order."""
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in items)
    return numbers and all(a <= b for a, b in itertools.pairwise(items))


def _distinct(items: list[Any]) -> bool:
    return len({stable_key(i) for i in items}) == len(items)


def is_prime(n: int) -> bool:
    """Trial division (inputs are small)."""
    if n < 2:
        return False
    return all(n % d for d in range(2, math.isqrt(n) + 1))


def _rectangular(rows: list[Any]) -> bool:
    return all(type(r) is list for r in rows) and len({len(r) for r in rows}) <= 1


def _flat(items: list[Any]) -> list[Any]:
    return [x for item in items for x in (_flat(item) if type(item) is list else [item])]


def _permutation(items: list[Any]) -> bool:
    """The (nested) items are 1..n, each once (a grid of distinct cells, a ranking)."""
    flat = _flat(items)
    return all(type(x) is int for x in flat) and sorted(flat) == list(range(1, len(flat) + 1))


def _has_brackets(text: str) -> bool:
    return any(c in "()[]{}<>" for c in text)


@dataclass(frozen=True)
class Property:
    """A property of the values of some types at one position, and the evidence (over the
    visible values of those types there) needed to believe it is a rule, not chance."""

    name: str
    kinds: tuple[type, ...]
    holds: Callable[[Any], bool]
    evidence: Callable[[list[Any]], bool]


PROPERTIES = (
    Property("non-empty", (str, list, dict, set), lambda v: len(v) > 0,
             lambda vs: len(vs) >= 3),
    Property("two-or-more", (list,), lambda v: len(v) >= 2, lambda vs: len(vs) >= 3),
    Property("balanced", (str,), balanced, lambda vs: any(_has_brackets(v) for v in vs)),
    Property("balanced-words", (str,), lambda s: all(balanced(w) for w in s.split(" ")),
             lambda vs: sum(" " in v and _has_brackets(v) for v in vs) >= 2),
    Property("letters-words", (str,), lambda s: all(len(w) <= 1 for w in s.split(" ")),
             lambda vs: sum(" " in v for v in vs) >= 2),
    Property("spacing", (str,), single_spaced, lambda vs: sum(" " in v for v in vs) >= 2),
    Property("sorted", (list,), _is_sorted, lambda vs: sum(len(v) >= 3 for v in vs) >= 2),
    Property("sorted-desc", (list,), lambda v: _is_sorted(v, reverse=True),
             lambda vs: sum(len(v) >= 3 for v in vs) >= 2),
    Property("distinct", (list,), _distinct,
             lambda vs: sum(len(v) for v in vs if len(v) >= 2) >= 8),
    Property("rectangular", (list,), _rectangular,
             lambda vs: sum(len(v) >= 2 and type(v[0]) is list for v in vs) >= 2),
    Property("square", (list,), lambda v: _rectangular(v) and all(len(r) == len(v) for r in v),
             lambda vs: sum(len(v) >= 2 and type(v[0]) is list for v in vs) >= 2),
    Property("permutation", (list,), _permutation,
             lambda vs: sum(len(_flat(v)) >= 4 for v in vs) >= 2),
    Property("ascending", (tuple,), _ascending,
             lambda vs: sum(len(v) >= 2 for v in vs) >= 3),
    Property("prime", (int,), is_prime, lambda vs: len(vs) >= 3),
    Property("composite", (int,), lambda n: n > 1 and not is_prime(n), lambda vs: len(vs) >= 4),
)  # fmt: skip


@dataclass(frozen=True)
class Invariant:
    """``prop`` holds on every value at ``path`` (a position as in :func:`inputs.profile`)."""

    path: str
    prop: Property

    def __str__(self) -> str:
        return f"{self.prop.name}@{self.path}"


def _values(args: Iterable[object], path: str = "") -> Iterable[tuple[str, object]]:
    """Every (path, value) inside an argument list, with the paths of ``inputs.profile``."""
    for i, arg in enumerate(args):
        yield from _walk(str(i), arg, 0)


def _walk(path: str, value: object, depth: int) -> Iterable[tuple[str, object]]:
    yield path, value
    if depth > 8:
        return
    kind = type(value)
    if kind in (list, set):
        for item in ordered(value):  # type: ignore[arg-type]
            yield from _walk(path + "[]", item, depth + 1)
    elif kind is tuple:
        for j, item in enumerate(value):  # type: ignore[arg-type]
            yield from _walk(f"{path}({j})", item, depth + 1)
    elif kind is dict:
        for k, v in value.items():  # type: ignore[attr-defined]
            yield from _walk(path + "{k}", k, depth + 1)
            yield from _walk(path + "{v}", v, depth + 1)


def learn(visible: list[list[object]]) -> list[Invariant]:
    """The properties that hold on every visible value at a position, with enough evidence."""
    by_path: dict[str, list[object]] = {}
    for args in visible:
        for path, value in _values(args):
            by_path.setdefault(path, []).append(value)
    found = []
    for path, values in sorted(by_path.items()):
        for prop in PROPERTIES:
            typed = [v for v in values if type(v) in prop.kinds]
            if typed and prop.evidence(typed) and all(prop.holds(v) for v in typed):
                found.append(Invariant(path, prop))
    return found


def violated(invariants: list[Invariant], args: Iterable[object]) -> Invariant | None:
    """The first invariant these arguments break, or None."""
    if not invariants:
        return None
    values = list(_values(args))
    for inv in invariants:
        for path, value in values:
            if path == inv.path and type(value) in inv.prop.kinds and not inv.prop.holds(value):
                return inv
    return None


def _fix_balanced(text: str) -> str:
    """``text`` without the brackets that break balance (unmatched or wrongly nested)."""
    closing = {p[1]: p[0] for p in _PAIRS}
    keep = [True] * len(text)
    stack: list[int] = []
    for i, c in enumerate(text):
        if c in "([{<":
            stack.append(i)
        elif c in closing:
            if stack and text[stack[-1]] == closing[c]:
                stack.pop()
            else:
                keep[i] = False
    for i in stack:
        keep[i] = False
    return "".join(c for c, k in zip(text, keep, strict=True) if k)


def _fix_sorted(items: list[object], reverse: bool) -> list[object]:
    try:
        return sorted(items, reverse=reverse)  # type: ignore[type-var]
    except TypeError:
        return items


FIXES: dict[str, Callable[[Any], object]] = {
    "balanced": _fix_balanced,
    "balanced-words": lambda s: " ".join(_fix_balanced(w) for w in s.split(" ")),
    "spacing": lambda s: " ".join(p for p in s.split(" ") if p),
    "sorted": lambda v: _fix_sorted(v, False),
    "sorted-desc": lambda v: _fix_sorted(v, True),
    "distinct": lambda v: list({stable_key(i): i for i in reversed(v)}.values())[::-1],
    "ascending": lambda v: tuple(_fix_sorted(list(v), False)),
}  # the other properties cannot be repaired: an input breaking them is refused


def repair(invariants: list[Invariant], args: list[object]) -> list[object] | None:
    """``args`` changed as little as :data:`FIXES` allow to satisfy every invariant (brackets
    that break balance removed, spaces collapsed, lists sorted or deduplicated), or None when
    that is not enough."""
    if not invariants:
        return args
    by_path: dict[str, list[Invariant]] = {}
    for inv in invariants:
        by_path.setdefault(inv.path, []).append(inv)
    fixed = [_rebuild(str(i), a, by_path, 0) for i, a in enumerate(args)]
    return None if violated(invariants, fixed) else fixed


def _rebuild(path: str, value: object, by_path: dict[str, list[Invariant]], depth: int) -> object:
    kind = type(value)
    if depth <= 8:
        if kind is list:
            value = [_rebuild(path + "[]", v, by_path, depth + 1) for v in value]  # type: ignore[attr-defined]
        elif kind is tuple:
            value = tuple(_rebuild(f"{path}({j})", v, by_path, depth + 1)
                          for j, v in enumerate(value))  # type: ignore[arg-type]  # fmt: skip
        elif kind is dict:
            value = {k: _rebuild(path + "{v}", v, by_path, depth + 1) for k, v in value.items()}  # type: ignore[attr-defined]
    for inv in by_path.get(path, []):
        fix = FIXES.get(inv.prop.name)
        if fix is not None and type(value) in inv.prop.kinds and not inv.prop.holds(value):
            value = fix(value)
    return value
