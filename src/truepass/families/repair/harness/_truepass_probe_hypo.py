"""Inputs drawn by ``hypothesis`` from strategies built from the recorded values' types (in
the sandbox, with ``_truepass_probe_inputs``). Without hypothesis in the interpreter that runs
the tests, there are none.

Per argument, from the values the tests passed there:

* integers between the observed extremes widened (twice the largest magnitude, and the
  observed sign); floats the same (no NaN, no infinity); booleans;
* strings over the characters observed, widened to their classes (a digit seen: all digits; a
  lower-case letter: all of them; upper case likewise), up to twice the longest;
* lists, dicts and sets of the strategies of their items, up to twice the longest plus two;
  tuples of a fixed arity slot by slot;
* anything else (objects, values of mixed types): one of the recorded values, as recorded.

Drawing is derandomised (the same inputs for the same recorded calls) with no example database
and the ``generate`` phase only, ``max_examples`` per target (``ProbeSettings.drawn``, 10 by
default: hypothesis's engine costs a few milliseconds an example).
"""

from __future__ import annotations

import contextlib
import string
from typing import Any

try:
    import hypothesis
    from hypothesis import strategies as st
except ImportError:  # the project's own interpreter may not have it
    hypothesis = None  # type: ignore[assignment]

Call = tuple[tuple[Any, ...], dict[str, Any]]
PLAIN = (bool, int, float, str, list, tuple, dict, set, frozenset, type(None))


def available() -> bool:
    return hypothesis is not None


def strategy(values: list[Any], depth: int = 0) -> Any:
    """A strategy for values like ``values`` (see the module docstring)."""
    kinds = {type(v) for v in values}
    if not values or depth > 2:
        return st.nothing()
    if not kinds <= set(PLAIN):
        return st.sampled_from(values)
    nullable = type(None) in kinds and len(kinds) > 1
    kinds.discard(type(None))
    present = [v for v in values if v is not None]
    if kinds == {int, float}:
        kinds, present = {float}, [float(v) for v in present]
    if len(kinds) != 1:
        return st.sampled_from(values)
    made = _one(kinds.pop(), present, depth)
    return st.one_of(st.none(), made) if nullable else made


def _one(kind: type, values: list[Any], depth: int) -> Any:
    if kind is type(None):
        return st.none()
    if kind is bool:
        return st.booleans()
    if kind in (int, float):
        top = max(abs(v) for v in values) * 2 or 2
        low = 0 if min(values) >= 0 else -top
        if kind is int:
            return st.integers(int(low), int(top))
        return st.floats(low, top, allow_nan=False, allow_infinity=False)
    longest = max((len(v) for v in values), default=0) * 2 + 2
    if kind is str:
        return st.text(alphabet=_alphabet(values), max_size=longest)
    if kind in (list, set, frozenset):
        items = [i for v in values for i in v]
        inner = strategy(items, depth + 1) if items else st.integers(-2, 2)
        if kind is list:
            return st.lists(inner, max_size=longest)
        made = st.sets(inner, max_size=longest)
        return made.map(frozenset) if kind is frozenset else made
    if kind is tuple:
        if len({len(v) for v in values}) != 1:
            return st.sampled_from(values)
        slots = [strategy([v[i] for v in values], depth + 1) for i in range(len(values[0]))]
        return st.tuples(*slots)
    if kind is dict:
        keys = [k for v in values for k in v]
        vals = [x for v in values for x in v.values()]
        if not keys:
            return st.just({})
        return st.dictionaries(strategy(keys, depth + 1), strategy(vals, depth + 1),
                               max_size=longest)  # fmt: skip
    return st.sampled_from(values)


def _alphabet(values: list[str]) -> str:
    seen = set("".join(values))
    for group in (string.digits, string.ascii_lowercase, string.ascii_uppercase):
        if seen & set(group):
            seen |= set(group)
    return "".join(sorted(seen)) or "a"


def draw(calls: list[Call], budget: int) -> list[Call]:
    """Up to ``budget`` argument tuples drawn for the positional slots of ``calls`` (each call's
    keyword arguments kept, in turn)."""
    if hypothesis is None or not calls or budget <= 0:
        return []
    arity = len(calls[0][0])
    if any(len(args) != arity for args, _ in calls):
        return []
    slots = [strategy([args[i] for args, _ in calls]) for i in range(arity)]
    drawn: list[tuple[Any, ...]] = []

    @hypothesis.settings(
        max_examples=budget, database=None, derandomize=True, deadline=None,
        phases=[hypothesis.Phase.generate], suppress_health_check=list(hypothesis.HealthCheck),
    )  # fmt: skip
    @hypothesis.given(st.tuples(*slots))
    def collect(row: tuple[Any, ...]) -> None:
        drawn.append(row)

    with contextlib.suppress(Exception):  # an unusable strategy: what was drawn so far
        collect()
    return [(row, calls[n % len(calls)][1]) for n, row in enumerate(drawn[:budget])]


def warm_up() -> None:
    """One tiny draw, so that hypothesis's lazily imported engine is loaded where this module is
    imported: in a warm worker, once, rather than in every forked run."""
    with contextlib.suppress(Exception):
        draw([((0, "a", [0]), {})], 2)


warm_up()
