"""A Python file a patch touched, parsed on both sides (:class:`FilePair`), and the Python view of
a change (:func:`sources`) that the Python detectors read."""

from __future__ import annotations

import ast
from functools import cached_property
from typing import ClassVar

from truepass.families.repair.fakefix.change import Change, SourcePair, Sources
from truepass.families.repair.fakefix.python.syntax import Scope, parse, scopes
from truepass.families.repair.fakefix.python.testfacts import collect


class FilePair(SourcePair[Scope]):
    """One changed Python file: its text and tree before and after the patch (None if absent)."""

    suffix: ClassVar[str] = ".py"
    before: ast.Module | None
    after: ast.Module | None

    def parse(self, text: str | None) -> ast.Module | None:
        return parse(text, self.path)

    @classmethod
    def scopes(cls, tree: ast.Module | None) -> dict[str, Scope]:
        return scopes(tree)

    def counterpart(self, after: Scope) -> Scope | None:
        """Same qualified name, else a unique scope with the same simple name (a moved
        function), else None (new code)."""
        if after.name in self.before_scopes:
            return self.before_scopes[after.name]
        same = [s for s in self.before_scopes.values() if s.simple_name == after.simple_name]
        if len(same) == 1 and same[0].name not in self.after_scopes:
            return same[0]
        return None

    def changed(self, old: Scope, new: Scope) -> bool:
        """A scope whose definitions read the same on both sides adds and removes nothing (the
        module scope always counts)."""
        return old.kind == "module" or _text(old, self._lines[0]) != _text(new, self._lines[1])

    @cached_property
    def _lines(self) -> tuple[list[str], list[str]]:
        return (self.before_text or "").splitlines(), (self.after_text or "").splitlines()


def _text(scope: Scope, lines: list[str]) -> list[str]:
    """Source lines of a scope's definitions (text-equal definitions are tree-equal)."""
    out: list[str] = []
    for root in scope.roots:
        start, end = getattr(root, "lineno", 1), getattr(root, "end_lineno", None) or len(lines)
        decorators = getattr(root, "decorator_list", [])
        start = min([start, *(d.lineno for d in decorators)])
        out += lines[start - 1 : end]
    return out


PythonChange = Sources[FilePair]
"""What the Python detectors read of a change."""


def sources(change: Change) -> PythonChange:
    """The Python files of ``change``."""
    return Sources(change, FilePair, collect)
