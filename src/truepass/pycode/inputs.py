"""Type-aware mutation of test inputs (the EvalPlus idea): new argument tuples grown from the
visible ones, seeded, never running any code.

Every argument position (and every position inside it: list elements, dict keys and values,
tuple slots) gets a :class:`~truepass.pycode.values.Profile` of what the visible inputs hold
there. The profile is the inferred domain of that position, because a generated input must
stay a valid input of the problem or it punishes correct solutions:

* ints and floats stay within the observed sign (all visible values non-negative: no negative
  ones, all positive: nothing below the observed minimum) and within a magnitude bound; where
  three or more floats are seen (a measured quantity: a grade, a probability), every number
  stays within the observed range;
* strings are built only from characters seen at that position;
* lists, sets and dicts take new elements by mutating elements seen at that position, so their
  element types are kept; tuples keep their length (they are usually fixed-shape records);
* every value keeps its exact type (``bool`` stays ``bool``, ``1.0`` stays a float).

Two kinds of inputs come out: **boundary** inputs (one argument of a visible input replaced by an
empty container, the empty string, 0/1/-1, the observed minimum and maximum and one beyond them,
a singleton ...) and **random** mutants (one or every argument of an earlier input mutated by a
random type-aware operator). Inputs that the problem does not accept are weeded out later by the
canonical solution (it must run without an exception, deterministically and in time).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from truepass.pycode.values import (
    MAX_DICT,
    Profile,
    Profiles,
    ordered,
    profile,
    rng_for,
    stable_key,
)

# --- mutation of one value ------------------------------------------------------------------


class Mutator:
    """Type-aware mutation of values at profiled positions, driven by one seeded generator."""

    def __init__(self, profiles: Profiles, rng: random.Random) -> None:
        self.profiles = profiles
        self.rng = rng

    def prof(self, path: str) -> Profile:
        return self.profiles.get(path) or Profile()

    def mutate(self, value: object, path: str, depth: int = 0) -> object:
        """A value of the same type as ``value``, usually different from it."""
        kind = type(value)
        if kind is bool:
            return not value
        if kind is int:
            return self._int(value, path)  # type: ignore[arg-type]
        if kind is float:
            return self._float(value, path)  # type: ignore[arg-type]
        if kind is str:
            return self._str(value, path)  # type: ignore[arg-type]
        if depth > 6:
            return value
        if kind is list:
            return self._list(value, path, depth)  # type: ignore[arg-type]
        if kind is set:
            return set(self._list(ordered(value), path, depth))  # type: ignore[arg-type]
        if kind is tuple:
            if not value:
                return value
            j = self.rng.randrange(len(value))  # type: ignore[arg-type]
            items = list(value)  # type: ignore[call-overload]
            items[j] = self.mutate(items[j], f"{path}({j})", depth + 1)
            return tuple(items)
        if kind is dict:
            return self._dict(value, path, depth)  # type: ignore[arg-type]
        return value

    def _int(self, v: int, path: str) -> int:
        low, high = self.prof(path).int_bounds()
        rng = self.rng
        seen = self.prof(path).ints or [v]
        pick = rng.randrange(9)
        new = (
            v + 1, v - 1, v + rng.randint(-10, 10), -v, v * 2, v // 2,
            rng.choice(seen), rng.randint(low, high), rng.choice((0, 1, -1, low, high)),
        )[pick]  # fmt: skip
        return min(max(new, low), high)

    def _float(self, v: float, path: str) -> float:
        low, high = self.prof(path).float_bounds()
        rng = self.rng
        if not math.isfinite(v):
            return v
        pick = rng.randrange(8)
        new = (
            v + rng.choice((0.5, -0.5, 1.0, -1.0)), v * rng.choice((2.0, 0.5, -1.0)),
            v + rng.uniform(-1, 1), round(rng.uniform(low, high), rng.choice((1, 2, 3))),
            rng.choice((0.0, 1.0, -1.0, 0.5, low, high)), float(round(v)),
            rng.choice(self.prof(path).floats or [v]), v + 1e-6,
        )[pick]  # fmt: skip
        return float(min(max(new, low), high))

    def _str(self, v: str, path: str) -> str:
        p, rng = self.prof(path), self.rng
        alphabet = p.alphabet
        ops = ["insert", "insert", "replace", "delete", "dup", "swap", "other", "reverse"]
        op = rng.choice(ops)
        if op == "insert" or not v:
            i = rng.randint(0, len(v))
            out = v[:i] + rng.choice(alphabet) + v[i:]
        elif op == "replace":
            i = rng.randrange(len(v))
            out = v[:i] + rng.choice(alphabet) + v[i + 1 :]
        elif op == "delete":
            i = rng.randrange(len(v))
            out = v[:i] + v[i + 1 :]
        elif op == "dup":
            i, j = sorted((rng.randint(0, len(v)), rng.randint(0, len(v))))
            out = v[:j] + v[i:j] + v[j:]
        elif op == "swap" and len(v) > 1:
            i, j = rng.sample(range(len(v)), 2)
            chars = list(v)
            chars[i], chars[j] = chars[j], chars[i]
            out = "".join(chars)
        elif op == "other":
            other = rng.choice([s for s in p.values if isinstance(s, str)] or [v])
            out = other + v if rng.random() < 0.5 else v + other
        else:
            out = v[::-1]
        return out[: p.max_str]

    def _element(self, items: list[object], path: str, depth: int) -> object | None:
        """A new element for a container at ``path``: a mutation of one seen there."""
        pool = items or list(self.prof(path).values)
        if not pool:
            return None
        return self.mutate(self.rng.choice(pool), path, depth + 1)

    def _list(self, v: list[object], path: str, depth: int) -> list[object]:
        rng, out = self.rng, list(v)
        cap = self.prof(path).max_len
        op = rng.choice(("mutate", "mutate", "insert", "insert", "delete", "dup", "swap",
                         "reverse", "sort", "empty"))  # fmt: skip
        sub = path + "[]"
        if op == "empty":
            return []
        if op == "insert" or not out:
            new = self._element(out, sub, depth)
            if new is not None:
                out.insert(rng.randint(0, len(out)), new)
        elif op == "mutate":
            i = rng.randrange(len(out))
            out[i] = self.mutate(out[i], sub, depth + 1)
        elif op == "delete":
            del out[rng.randrange(len(out))]
        elif op == "dup":
            out.insert(rng.randint(0, len(out)), rng.choice(out))
        elif op == "swap" and len(out) > 1:
            i, j = rng.sample(range(len(out)), 2)
            out[i], out[j] = out[j], out[i]
        elif op == "reverse":
            out.reverse()
        elif op == "sort":
            try:
                out.sort()
            except TypeError:
                out.reverse()
        return out[:cap]

    def _dict(self, v: dict[object, object], path: str, depth: int) -> dict[object, object]:
        rng, out = self.rng, dict(v)
        keys = ordered(out)
        op = rng.choice(("value", "value", "add", "delete", "empty"))
        if op == "empty":
            return {}
        if op == "add" or not keys:
            key = self._element(keys, path + "{k}", depth)
            value = self._element(list(out.values()), path + "{v}", depth)
            if key is not None and value is not None and len(out) < MAX_DICT:
                out[key] = value
        elif op == "value":
            k = rng.choice(keys)
            out[k] = self.mutate(out[k], path + "{v}", depth + 1)
        else:
            del out[rng.choice(keys)]
        return out


# --- boundary values ---------------------------------------------------------------------


def boundary_values(value: object, path: str, profiles: Profiles) -> Iterator[object]:
    """Edge values of the same type as ``value`` at this position: empties, 0/1/-1, the observed
    extremes and one beyond them, singletons and duplicates of containers."""
    p = profiles.get(path) or Profile()
    kind = type(value)
    if kind is bool:
        yield from (False, True)
    elif kind is int:
        low, high = p.int_bounds()
        seen = p.ints or [value]
        for v in (0, 1, -1, min(seen), max(seen), min(seen) - 1, max(seen) + 1):
            if low <= v <= high:
                yield v
    elif kind is float:
        low, high = p.float_bounds()
        seen = [f for f in p.floats if math.isfinite(f)] or [value]
        for v in (0.0, 1.0, -1.0, 0.5, min(seen), max(seen), min(seen) - 0.5, max(seen) + 0.5):
            if low <= v <= high:
                yield float(v)
    elif kind is str:
        yield ""
        alphabet = p.alphabet
        yield alphabet[0]
        yield alphabet[-1]
        if value:
            yield value[0]
            yield value * 2 if len(value) * 2 <= p.max_str else value[::-1]
    elif kind in (list, set):
        items = ordered(value)  # type: ignore[arg-type]
        yield kind()
        if items:
            yield kind(items[:1])
            yield kind(items[-1:])
            if kind is list:
                yield [items[0], items[0]]
                yield items[::-1]
        for item in items[:2]:
            for edge in boundary_values(item, path + "[]", profiles):
                yield kind([edge] if not items[1:] else [edge, *items[1:]])
    elif kind is tuple:
        for j, item in enumerate(value):  # type: ignore[arg-type]
            for edge in boundary_values(item, f"{path}({j})", profiles):
                yield (*value[:j], edge, *value[j + 1 :])  # type: ignore[index]
    elif kind is dict:
        yield {}
        if value:
            first = ordered(value)[0]  # type: ignore[arg-type]
            yield {first: value[first]}  # type: ignore[index]


# --- generation -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Generated:
    """One generated argument list and how it was made (``boundary`` or ``random``)."""

    args: tuple[object, ...]
    kind: str


def generate_inputs(
    visible: list[list[object]],
    n: int,
    *,
    seed: int = 0,
    key: str = "",
    exclude: Iterable[list[object]] = (),
    adjust: Callable[[list[object]], list[object] | None] | None = None,
    share_boundary: float = 0.4,
) -> list[Generated]:
    """Up to ``n`` new argument lists grown from the visible ones (none equal to a visible one
    or to one of ``exclude``, e.g. the existing hidden inputs). ``adjust`` may change each new
    input (to satisfy the invariants of the visible ones) or refuse it (None).

    Deterministic for a given ``seed`` and ``key`` (the sample id). About ``share_boundary`` of
    them are boundary inputs (chosen at random when there are more), the rest random mutants.
    """
    if not visible or n <= 0:
        return []
    rng = rng_for(seed, key)
    profiles = profile(visible)
    seen = {stable_key(tuple(a)) for a in [*visible, *exclude]}
    out: list[Generated] = []

    def add(args: list[object], kind: str) -> bool:
        if adjust is not None:
            adjusted = adjust(args)
            if adjusted is None:
                return False
            args = adjusted
        k = stable_key(tuple(args))
        if k in seen or not _small(args):
            return False
        seen.add(k)
        out.append(Generated(tuple(args), kind))
        return True

    edges: list[list[object]] = []
    edge_keys: set[str] = set()
    for args in visible:
        for j, arg in enumerate(args):
            for edge in boundary_values(arg, str(j), profiles):
                new = [*args[:j], edge, *args[j + 1 :]]
                k = stable_key(tuple(new))
                if k not in edge_keys:
                    edge_keys.add(k)
                    edges.append(new)
    rng.shuffle(edges)
    quota = max(1, int(n * share_boundary))
    for args in edges:
        if sum(g.kind == "boundary" for g in out) >= quota:
            break
        add(args, "boundary")
    mutator = Mutator(profiles, rng)
    corpus = [list(a) for a in visible]
    tries = 0
    while len(out) < n and tries < 30 * n:
        tries += 1
        base = list(rng.choice(corpus))
        if not base:
            break
        positions = range(len(base)) if rng.random() < 0.25 else [rng.randrange(len(base))]
        for j in positions:
            base[j] = mutator.mutate(base[j], str(j))
        if add(base, "random"):
            corpus.append(base)
    return out


def _small(args: list[object]) -> bool:
    """Generated inputs stay small: a test should be readable and fast."""
    return len(stable_key(tuple(args))) <= 4000
