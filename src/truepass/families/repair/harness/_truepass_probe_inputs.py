"""Inputs the differential probe replays beyond the recorded calls (in the sandbox, with
``_truepass_probe``; standard library and the shipped copy of truepass harden's engine only).

From the calls the tests made into one function (each an argument tuple and keyword dict, the
receiver first for a method), per argument:

* ``none``: None in place of an object (not of a plain value: a number, a string or a
  container, unless a recorded call passed None there);
* ``boundary``: harden's boundary values of a plain value (empties, 0/1/-1, the observed
  extremes and one beyond, singletons ...), the same one level down inside lists, tuples and
  dict values, and the *seeds*: the constants of the changed function (the reference's and the
  buggy code's, sent by the parent) and the plain attributes of the receiver, each with one
  below and one above for numbers, alone and joined to the recorded value for strings;
* ``swap``: two positional arguments of the same type swapped, and two attributes of the
  receiver holding plain values of the same type (a queue's two stacks, say) swapped;
* ``random``: harden's type-aware random mutants;
* ``value``: the value objects of real code, which are not plain values: a ``Decimal`` one unit
  of its last place up and down, negated, zero and with a half at the next place (0.125); a
  ``date`` or ``datetime`` a day (and a ``datetime`` a second) either way, the first and last
  day of its month and February's last; an ``Enum`` member the other members; each also
  replaced by the seeds of its type (the same kinds of value among the receiver's attributes
  and the call's other arguments, and one unit either side); and a dataclass instance, the
  receiver included, with one of its fields changed to one of these edges
  (``dataclasses.replace``, so the class's own checks refuse states it does not allow).

Numbers stay within harden's inferred domain except the seeds; inputs keep the likely
invariants of the recorded arguments (sorted, distinct, non-empty ...), as harden's do.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import itertools
from collections.abc import Callable, Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

import _truepass_probe_hypo as _hypo
import _truepass_probe_shapes as _shapes

Call = tuple[tuple[Any, ...], dict[str, Any]]
Input = tuple[str, tuple[Any, ...], dict[str, Any]]
KINDS = (
    "none", "swap", "boundary", "value", "cross", "size", "hole", "text", "pair", "hypothesis",
    "random",
)  # fmt: skip
PAIRED = ("boundary", "value", "cross", "size")  # the kinds of change a ``pair`` input joins
PAIRS = 24  # ``pair`` inputs per target at most
# the likely invariants a ``size`` or ``hole`` input may break on purpose: going past the
# recorded sizes, down to empty, is what it is for (``distinct`` and the others still hold:
# repeated items in a list that never had any leave the function's domain)
PAST_SIZES = frozenset({"non-empty", "two-or-more"})
VALUE_TYPES = (Decimal, datetime.date)  # datetime.datetime is a date


def _plain(pv: Any, value: Any) -> bool:
    try:
        pv.check_plain(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def _seeded(value: Any, seeds: list[Any]) -> list[Any]:
    """Values of ``value``'s type made from the seeds."""
    kind = type(value)
    out: list[Any] = []
    for s in seeds:
        if kind in (int, float) and type(s) in (int, float) and not isinstance(s, bool):
            out += [kind(s) - 1, kind(s), kind(s) + 1] if kind is int or s == int(s) else [kind(s)]
        elif kind is str and type(s) is str and len(s) <= 20:
            out += [s, value + s, s + value]
    return out


def _unit(value: Any) -> Any:
    """One unit of a value object's last place: 10**exponent, a day, or None."""
    if isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        return Decimal(1).scaleb(exponent) if isinstance(exponent, int) else None
    if isinstance(value, datetime.date):
        return datetime.timedelta(days=1)
    return None


def value_edges(value: Any, seeds: list[Any]) -> Iterator[Any]:
    """Edges of a value object (see the module docstring), seeds of its type included."""
    kind = type(value)
    unit = _unit(value)
    try:
        if isinstance(value, Decimal) and value.is_finite() and unit is not None:
            yield from (value + unit, value - unit, -value, Decimal(0) * unit)
            yield value + unit / 2 if value >= 0 else value - unit / 2
        elif isinstance(value, datetime.date):
            yield from (value + unit, value - unit)
            if isinstance(value, datetime.datetime):
                yield from (
                    value + datetime.timedelta(seconds=1),
                    value - datetime.timedelta(seconds=1),
                )
            first = value.replace(day=1)
            yield first
            yield (first + datetime.timedelta(days=32)).replace(day=1) - unit
            march = value.replace(month=3, day=1)
            yield march - unit
        elif isinstance(value, enum.Enum):
            yield from (m for m in type(value) if m is not value)
        for s in seeds:
            if type(s) is kind and s != value:
                step = _unit(s)
                yield from (s, s - step, s + step) if step is not None else (s,)
    except (ArithmeticError, InvalidOperation, ValueError, OverflowError):
        return


def _fields_changed(
    obj: Any, seeds: list[Any], edges: Callable[[Any, str], Any], others: tuple[Any, ...] = ()
) -> Iterator[Any]:
    """Copies of a dataclass instance with one field changed to one of its edges, or, for a
    number or a string, to a value of its type among ``others`` (the call's other plain
    arguments: a promotion's free units as many as the quantity bought); the fields in turn,
    so that a cap on the copies still changes each of them."""
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        return
    per_field = []
    for field in [f for f in dataclasses.fields(obj) if f.init][:6]:
        current = getattr(obj, field.name, None)
        if isinstance(current, (*VALUE_TYPES, enum.Enum)):
            new_values = list(itertools.islice(value_edges(current, seeds), 8))
        elif type(current) in (int, float, str, bool):
            crossed = [v for v in others if type(v) is type(current) and v != current][:4]
            new_values = crossed + list(itertools.islice(edges(current, f".{field.name}"), 5))
        else:
            continue
        per_field.append([(field.name, new) for new in new_values])
    for row in itertools.zip_longest(*per_field):
        for name, new in (change for change in row if change is not None):
            try:
                yield dataclasses.replace(obj, **{name: new})
            except Exception:  # the class refuses this state: not an input it takes
                continue


def _nested(value: Any, path: str, edges: Callable[[Any, str], Any], depth: int = 0) -> Any:
    """Edges one level down: a list item, a tuple slot or a dict value replaced."""
    kind = type(value)
    if depth > 1:
        return
    if kind is list:
        for i, item in enumerate(value[:2]):
            for e in itertools.chain(
                edges(item, path + "[]"), _nested(item, path + "[]", edges, depth + 1)
            ):
                yield [*value[:i], e, *value[i + 1 :]]
    elif kind is dict:
        for key in list(value)[:3]:
            sub = path + "{v}"
            for e in itertools.chain(
                edges(value[key], sub), _nested(value[key], sub, edges, depth + 1)
            ):
                yield {**value, key: e}
    elif kind is tuple:
        for j, item in enumerate(value):
            sub = f"{path}({j})"
            for e in _nested(item, sub, edges, depth + 1):
                yield (*value[:j], e, *value[j + 1 :])


def generate(
    calls: list[Call],
    skip: int,
    seeds: list[Any],
    lib: dict[str, Any],
    key: Callable[[tuple[Any, ...], dict[str, Any]], str],
    seen: set[str],
    *,
    seed: int,
    name: str,
    cap: int,
    copier: Callable[[Any], Any],
    randoms: int = 8,
    declared: dict[int | str, str] | None = None,
    drawn: int = 10,
) -> list[Input]:
    """Up to ``cap`` new inputs (see the module docstring and ``_truepass_probe_shapes``),
    ``none`` ones first, then swaps, boundary, value, cross, size, hole, text and random ones;
    ``skip`` leading arguments (the receiver) are changed only by swaps of its attributes, by
    ``value`` changes of one field of a dataclass and by ``size`` changes of a list field.
    ``declared``: the parameters' annotations as text, by position (receiver included) and by
    keyword name. ``drawn``: inputs drawn by hypothesis at most."""
    declared = declared or {}
    inputs, values, pv, learned = lib["inputs"], lib["values"], lib["pv"], lib["invariants"]
    rows = [[*args[skip:], *(kwargs[k] for k in sorted(kwargs))] for args, kwargs in calls]
    profiles = values.profile(rows)
    invariants = learned.learn(rows)
    state_seeds = [v for args, _ in calls[:5] for r in args[:skip] for v in _attributes(r)]
    all_seeds = list(
        dict.fromkeys(s for s in [*seeds, *state_seeds] if type(s) in (int, float, str))
    )
    value_seeds = _value_seeds(calls[:5])
    rng = values.rng_for(seed, name)
    mutator = inputs.Mutator(profiles, rng)
    found: dict[str, list[Input]] = {k: [] for k in KINDS}
    keys = set(seen)
    none_ok = {str(p) for row in rows for p, v in enumerate(row) if v is None}

    relaxed = [i for i in invariants if i.prop.name not in PAST_SIZES]

    def add(kind: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        keep = relaxed if kind in ("size", "hole") else invariants
        if kind != "none" and keep:
            names = sorted(kwargs)
            row = learned.repair(keep, [*args[skip:], *(kwargs[k] for k in names)])
            if row is None:
                return
            n = len(args) - skip
            args, kwargs = (*args[:skip], *row[:n]), dict(zip(names, row[n:], strict=True))
        try:
            k = key(args, kwargs)
        except Exception:
            return
        if k not in keys:
            keys.add(k)
            found[kind].append((kind, args, kwargs))

    def edges(value: Any, path: str) -> Any:
        return itertools.islice(inputs.boundary_values(value, path, profiles), 10)

    singles: dict[int, dict[int, list[tuple[Any, Any, Any]]]] = {}  # call -> slot -> changes
    for index, (args, kwargs) in enumerate(calls):
        for receiver in args[:skip]:
            for swapped in _swapped_state(receiver, copier):
                add("swap", (swapped, *args[1:]), kwargs)
            for changed in _fields_changed(receiver, value_seeds, edges):
                add("value", (changed, *args[1:]), kwargs)
            for changed in _shapes.object_sizes(receiver, copier):
                add("size", (changed, *args[1:]), kwargs)
        for a, b in itertools.combinations(range(skip, len(args)), 2):
            if type(args[a]) is type(args[b]) and args[a] is not args[b]:
                swapped = list(args)
                swapped[a], swapped[b] = swapped[b], swapped[a]
                add("swap", tuple(swapped), kwargs)
        slots = [(j, None) for j in range(skip, len(args))] + [(None, k) for k in sorted(kwargs)]
        flat = [args[j] if j is not None else kwargs[k] for j, k in slots]
        for pos, (j, k) in enumerate(slots):
            value = args[j] if j is not None else kwargs[k]
            path = str(pos)

            def put(
                kind: str, new: Any, j: Any = j, k: Any = k, args: Any = args, kwargs: Any = kwargs,
                slot: int = pos, index: int = index,
            ) -> None:  # fmt: skip
                if kind in PAIRED:
                    singles.setdefault(index, {}).setdefault(slot, []).append((j, k, new))
                if j is not None:
                    add(kind, (*args[:j], new, *args[j + 1 :]), kwargs)
                else:
                    add(kind, args, {**kwargs, k: new})

            plain = _plain(pv, value)
            if value is not None and (not plain or path in none_ok):
                put("none", None)
            if not plain:
                if isinstance(value, (*VALUE_TYPES, enum.Enum)):
                    for edge in itertools.islice(value_edges(value, value_seeds), 16):
                        put("value", edge)
                others = tuple(v for v in flat if type(v) in (int, float, str))
                changes = _fields_changed(value, value_seeds, edges, others)
                for changed in itertools.islice(changes, 28):
                    put("value", changed)
                for changed in itertools.islice(_shapes.object_sizes(value, copier), 12):
                    put("size", changed)
                for new in _shapes.sizes(value) if type(value) in (list, dict) else ():
                    put("size", new)
                continue
            slot_declared = declared.get(j if j is not None else k, "")
            for new in _shapes.crossings(flat, pos, slot_declared):
                put("cross", new)
            for new in _shapes.sizes(value):
                put("size", new)
            nones = _shapes.admits_none(slot_declared)
            for new in itertools.islice(_shapes.holes(value, nones), 12):
                put("hole", new)
            for new in itertools.islice(_shapes.texts(value), 16):
                put("text", new)
            for edge in [*edges(value, path), *_seeded(value, all_seeds)]:
                put("boundary", edge)
            for edge in itertools.islice(_nested(value, path, edges), 20):
                put("boundary", edge)
            for _ in range(randoms):
                put("random", mutator.mutate(value, path))
    for args, kwargs in _hypo.draw(calls, drawn):
        add("hypothesis", args, kwargs)
    for index, slots in singles.items():
        for args, kwargs in _pairs(calls[index], slots, rng, max(4, PAIRS // len(singles))):
            add("pair", args, kwargs)
    rng.shuffle(found["random"])
    return _fair([found[kind] for kind in KINDS], cap)


def _pairs(
    call: Call, slots: dict[int, list[tuple[Any, Any, Any]]], rng: Any, n: int
) -> Iterator[Call]:
    """Up to ``n`` inputs joining two single changes of one call, in two different arguments,
    drawn at random: a promotion's free units changed *and* a larger quantity."""
    if len(slots) < 2:
        return
    args, kwargs = call
    for _ in range(n):
        a, b = rng.sample(sorted(slots), 2)
        new_args, new_kwargs = list(args), dict(kwargs)
        for j, k, new in (rng.choice(slots[a]), rng.choice(slots[b])):
            if j is not None:
                new_args[j] = new
            else:
                new_kwargs[k] = new
        yield tuple(new_args), new_kwargs


def _fair(groups: list[list[Input]], cap: int) -> list[Input]:
    """Up to ``cap`` inputs taken from the groups in turn (each group in its own order), so that
    no kind of input crowds out the others."""
    out: list[Input] = []
    for row in itertools.zip_longest(*groups):
        out.extend(case for case in row if case is not None)
    return out[:cap]


def _value_seeds(calls: list[Call]) -> list[Any]:
    """The value objects among the calls' arguments and their attributes (one level): the
    dates, amounts and members an input may take from elsewhere in the same call."""
    out: list[Any] = []
    for args, kwargs in calls:
        for arg in [*args, *kwargs.values()]:
            fields = _attributes(arg)
            if dataclasses.is_dataclass(arg) and not isinstance(arg, type):
                fields = [getattr(arg, f.name, None) for f in dataclasses.fields(arg)][:30]
            for v in [arg, *fields]:
                if isinstance(v, VALUE_TYPES) and v not in out:
                    out.append(v)
    return out[:20]


def _attributes(obj: Any) -> list[Any]:
    """The first 30 attribute values of an object (a receiver's limits, sizes, names ...):
    seeds of the inputs, once filtered by type."""
    state = getattr(obj, "__dict__", None)
    return list(state.values())[:30] if isinstance(state, dict) else []


def _swapped_state(obj: Any, copier: Callable[[Any], Any]) -> list[Any]:
    """Copies of a receiver with two of its attributes that hold plain containers of the same
    type swapped (at most three such copies)."""
    state = getattr(obj, "__dict__", None)
    if not isinstance(state, dict):
        return []
    names = [k for k, v in state.items() if type(v) in (list, dict, set, tuple, str)]
    out = []
    for a, b in itertools.combinations(names[:8], 2):
        if type(state[a]) is type(state[b]) and state[a] != state[b] and len(out) < 3:
            other = copier(obj)
            other.__dict__[a], other.__dict__[b] = other.__dict__[b], other.__dict__[a]
            out.append(other)
    return out
