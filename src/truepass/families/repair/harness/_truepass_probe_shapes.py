"""Inputs of shapes the recorded calls never had (in the sandbox, with ``_truepass_probe_inputs``;
standard library only). Each is made from one recorded value, never from knowing the bug:

* ``size``: a collection grown well past the recorded sizes (its items repeated, each item
  twice in a row, a list of integers continued by its last step, a dict's items under new keys
  of the same kind) and shrunk (empty, one item); a dataclass's or an object's list fields grown
  and shrunk the same way; never a tuple, which is a record of fixed arity as often as not;
* ``hole``: None and empty values put into mappings and sequences (a dict value, a list item,
  one item appended), one level down too; None only where the parameter's annotation does not
  say its items are of a type that excludes it (``Mapping[str, str]`` gets no None);
* ``text``: structured text turned into its other shapes: JSON whose top level is an object, a
  list or a scalar becomes the others (and null, and an empty one); a TOML table becomes a
  scalar and a top-level scalar a table (each kept only if it parses); numbers that are whole
  tokens of a text (not inside a word or a code such as ``#112345``) signed, negated, halved and
  zeroed; a delimited line with an empty field and a trailing delimiter; line-based text with
  CRLF endings, a trailing newline toggled and a blank line inserted;
* ``cross``: a number or string replaced by another argument of the same type in the same call
  (and one either side, for integers): the equalities between arguments that comparisons test;
  an integer where the function declares ``float``, half a unit either side.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections.abc import Iterator
from typing import Any

GROW_TO = 24  # items in a grown collection at least
# a number that is a whole token of delimited text (not part of a word, a hex code or a date)
_NUMBER = re.compile(r"(?:(?<=^)|(?<=[\s,;|:=(\[{]))\d+(?:\.\d+)?(?=$|[\s,;|)\]}])")


def sizes(value: Any) -> Iterator[Any]:
    """The value grown and shrunk (lists, strings, dicts, sets; not tuples, which are records
    of a fixed arity as often as sequences)."""
    kind = type(value)
    if kind is list:
        yield []
        if len(value) > 1:
            yield value[:1]
        if value:
            yield [x for v in value for x in (v, v)]
            reps = 1 + max(GROW_TO, 3 * len(value)) // len(value)
            yield value * reps
            yield from _continued(value)
    elif kind is str:
        yield ""
        if 0 < len(value) <= 200:
            yield value * max(3, 1 + GROW_TO // len(value))
    elif kind is dict:
        yield {}
        grown = dict(value)
        for n, (k, v) in enumerate(list(value.items()) * 3):
            new = _new_key(k, n, grown)
            if new is not None:
                grown[new] = v
        if len(grown) > len(value):
            yield grown
    elif kind in (set, frozenset):
        yield kind()


def _continued(items: list[Any]) -> Iterator[list[Any]]:
    """A list of numbers continued past its end by its own last step (distinct and in order,
    if it was), to :data:`GROW_TO` items."""
    if len(items) < 2 or not all(type(v) is int for v in items):
        return
    step = items[-1] - items[-2] or 1
    grown = list(items)
    while len(grown) < max(GROW_TO, 3 * len(items)):
        grown.append(grown[-1] + step)
    yield grown


def _new_key(key: Any, n: int, taken: dict[Any, Any]) -> Any:
    """A key of ``key``'s kind not yet in ``taken``."""
    if type(key) is str:
        new: Any = f"{key}_{n + 1}"
    elif type(key) is int:
        new = max((k for k in taken if type(k) is int), default=key) + 1
    else:
        return None
    return None if new in taken else new


def object_sizes(obj: Any, copier: Any) -> Iterator[Any]:
    """Copies of a dataclass instance or an object with one of its list (or dict) fields grown
    or shrunk (``sizes``): an order with each line twice, a basket emptied."""
    state = getattr(obj, "__dict__", None)
    if isinstance(obj, type) or not isinstance(state, dict):
        return
    names = [k for k, v in state.items() if type(v) in (list, dict)][:4]
    fields = {f.name for f in dataclasses.fields(obj)} if dataclasses.is_dataclass(obj) else set()
    for name in names:
        for new in sizes(state[name]):
            try:
                other = copier(obj)
                if name in fields:
                    other = dataclasses.replace(other, **{name: copy.deepcopy(new)})
                else:
                    other.__dict__[name] = copy.deepcopy(new)
            except Exception:  # the class refuses this state
                continue
            yield other


def admits_none(declared: str) -> bool:
    """Whether a parameter declared ``declared`` may hold None inside: yes when it says nothing
    of its items (no annotation, a bare ``dict``) or says None, Optional, Any or object."""
    if not declared or "[" not in declared:
        return True
    return any(word in declared for word in ("None", "Optional", "Any", "object"))


def holes(value: Any, nones: bool = True, depth: int = 0) -> Iterator[Any]:
    """None (where ``nones``) and an empty value of the same type put into a mapping's values or
    a sequence's items (the first three), None appended to a list; one level down too."""
    kind = type(value)
    if depth > 1:
        return
    if kind is dict:
        for key in list(value)[:3]:
            if nones:
                yield {**value, key: None}
            empty = _empty(value[key])
            if empty is not None:
                yield {**value, key: empty}
            for inner in holes(value[key], nones, depth + 1):
                yield {**value, key: inner}
    elif kind is list:
        for i in range(min(2, len(value))):
            if nones:
                yield [*value[:i], None, *value[i + 1 :]]
            for inner in holes(value[i], nones, depth + 1):
                yield [*value[:i], inner, *value[i + 1 :]]
        if value and nones:
            yield [*value, None]


def _empty(value: Any) -> Any:
    kind = type(value)
    if kind in (str, list, dict, tuple, set) and value:
        return kind()
    return None


def texts(value: Any) -> Iterator[str]:
    """Structured text in its other shapes (see the module docstring)."""
    if type(value) is not str or not value.strip() or len(value) > 5000:
        return
    yield from _json_shapes(value)
    yield from _toml_shapes(value)
    for match in list(_NUMBER.finditer(value))[:3]:
        start, end, number = match.start(), match.end(), match.group()
        for new in (f"-{number}", f"+{number}", "0", f"{number}.5" if "." not in number else "1"):
            yield value[:start] + new + value[end:]
    delimiter = next((d for d in (",", ";", "\t", "|") if d in value), None)
    if delimiter:
        first, sep, rest = value.partition(delimiter)
        yield first + sep + delimiter + rest  # an empty field
        yield value.rstrip("\n") + delimiter + ("\n" if value.endswith("\n") else "")
    if "\n" in value.strip("\n"):
        yield value.replace("\n", "\r\n")
        yield value[:-1] if value.endswith("\n") else value + "\n"
        head, sep, tail = value.partition("\n")
        yield head + sep + "\n" + tail


def _json_shapes(value: str) -> Iterator[str]:
    text = value.strip()
    if text[:1] not in '{["-0123456789tfn':
        return
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return
    scalars = [v for v in _leaves(data) if not isinstance(v, (dict, list))][:1] or [1]
    shapes: list[Any] = [None, scalars[0], [data], {}, []]
    if isinstance(data, dict):
        shapes.append(list(data.values()))
    elif isinstance(data, list):
        shapes.append({str(i): v for i, v in enumerate(data[:5])})
    else:
        shapes.append({"value": data})
    for shape in shapes:
        if shape != data:
            yield json.dumps(shape)


def _toml_shapes(value: str) -> Iterator[str]:
    """A TOML document with a table turned into a scalar (``[server]`` into ``server = 1``) and
    a top-level scalar into a table; each kept only if it still parses."""
    if "=" not in value or "\n" not in value:
        return
    try:
        import tomllib

        if not tomllib.loads(value):
            return
    except Exception:
        return
    lines = value.split("\n")
    header = re.compile(r"^\[([A-Za-z0-9_-]+)\]\s*$")
    scalar = re.compile(r"^([A-Za-z0-9_-]+)\s*=")
    made = []
    for i, line in enumerate(lines):
        table, named = header.match(line), scalar.match(line)
        if table:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("[")),
                       len(lines))  # fmt: skip
            made.append([*lines[:i], f"{table.group(1)} = 1", *lines[end:]])
        elif named and not any(header.match(x) for x in lines[:i]):
            rest = [x for j, x in enumerate(lines) if j != i]
            made.append([*rest, f"[{named.group(1)}]", "value = 1"])
        if len(made) >= 3:
            break
    for new in made:
        text = "\n".join(new)
        try:
            tomllib.loads(text)
        except Exception:
            continue
        yield text


def _leaves(data: Any, depth: int = 0) -> Iterator[Any]:
    if depth > 3:
        return
    if isinstance(data, dict):
        for v in data.values():
            yield from _leaves(v, depth + 1)
    elif isinstance(data, list):
        for v in data:
            yield from _leaves(v, depth + 1)
    else:
        yield data


def crossings(values: list[Any], index: int, declared: str) -> Iterator[Any]:
    """Values for slot ``index`` taken from the call's other arguments of the same type (and one
    either side, for integers), and half-steps of an integer where ``declared`` (the parameter's
    annotation) says float."""
    value = values[index]
    kind = type(value)
    if kind is int and "float" in declared:
        yield from (value + 0.5, value - 0.5)
    if kind not in (int, float, str):
        return
    for j, other in enumerate(values):
        if j != index and type(other) is kind and other != value:
            yield other
            if kind is int:
                yield from (other - 1, other + 1)
