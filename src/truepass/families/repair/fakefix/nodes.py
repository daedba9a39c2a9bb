"""How a language's syntax nodes read, for the rules every language shares."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

N = TypeVar("N")


@dataclass(frozen=True)
class NodeForms(Generic[N]):
    """A language's ways to name a node: ``python/syntax.py``'s ``FORMS``, ``java/syntax.py``'s."""

    line: Callable[[N], int]
    """the 1-based line where a node starts"""
    show: Callable[[N, int], str]
    """a node's source on one line, cut to a number of characters"""
    key: Callable[[N], Hashable]
    """a position- and layout-free form (equal for equal code wherever it sits)"""
    ident: Callable[[N], int]
    """a node's identity within its tree"""
