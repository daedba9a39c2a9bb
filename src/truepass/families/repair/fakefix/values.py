"""Literal keys, the values every language's detectors compare: a hashable tuple per literal.

A language folds its expressions into these keys (``python/literals.py``, ``java/literals.py``):
``("num", 3)``, ``("str", "a")``, ``("bool", True)``, ``("none",)``, ``("bytes", b"")``,
``("seq", (...))`` for lists, tuples and arrays, ``("set", frozenset(...))``,
``("map", frozenset((k, v), ...))`` and ``("call", name, args, kwargs)`` for a constructor call
of literals, so that the tests' and the code's spellings meet.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

Lit = tuple[Any, ...]

TRIVIAL: frozenset[Hashable] = frozenset(
    {
        ("none",),
        ("bool", True),
        ("bool", False),
        ("num", 0),
        ("num", 1),
        ("num", -1),
        ("str", ""),
        ("bytes", b""),
        ("seq", ()),
        ("map", frozenset()),
        ("set", frozenset()),
    }
)


def is_trivial(lit: Lit) -> bool:
    """0, 1, -1, booleans, None and empty literals: too common to point at the tests."""
    return lit in TRIVIAL


def parts(lit: Lit) -> Iterator[Lit]:
    """``lit`` and, recursively, the elements of sequences, sets, dict values and call args."""
    yield lit
    kind = lit[0]
    children: list[Lit] = []
    if kind in ("seq", "set"):
        children = list(lit[1])
    elif kind == "map":
        children = [v for _, v in lit[1]]
    elif kind == "call":
        children = list(lit[2]) + [v for _, v in lit[3]]
    for child in children:
        yield from parts(child)


def shorten(text: str, limit: int) -> str:
    """``text``, cut to ``limit`` characters with ``...`` where longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
