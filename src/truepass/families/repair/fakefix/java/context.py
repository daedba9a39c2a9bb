"""A Java file a patch touched, parsed on both sides (:class:`JavaFile`), and the Java view of a
change (:func:`sources`) that the Java detectors read."""

from __future__ import annotations

from typing import ClassVar

from tree_sitter import Node

from truepass.families.repair.fakefix.change import Change, SourcePair, Sources
from truepass.families.repair.fakefix.java.syntax import Scope, key, parse, scopes


def is_java(path: str) -> bool:
    """True for a Java source file."""
    return path.endswith(".java")


class JavaFile(SourcePair[Scope]):
    """One changed Java file: its text and tree before and after the patch (None if absent);
    its scopes are keyed by signature."""

    suffix: ClassVar[str] = ".java"
    before: Node | None
    after: Node | None

    def parse(self, text: str | None) -> Node | None:
        return parse(text)

    @classmethod
    def scopes(cls, tree: Node | None) -> dict[str, Scope]:
        return scopes(tree)

    def counterpart(self, after: Scope) -> Scope | None:
        """Same key, else the only buggy scope of that name whose key is gone (a changed
        signature), else None (new code)."""
        if after.key in self.before_scopes:
            return self.before_scopes[after.key]
        same = [
            s
            for s in self.before_scopes.values()
            if s.name == after.name and s.kind == after.kind and s.key not in self.after_scopes
        ]
        return same[0] if len(same) == 1 else None

    def changed(self, old: Scope, new: Scope) -> bool:
        """Class scopes always (their fields are paired node by node), methods whose text
        differs."""
        return new.kind == "class" or key(old.root) != key(new.root)


JavaChange = Sources[JavaFile]
"""What the Java detectors read of a change."""


def sources(change: Change) -> JavaChange:
    """The Java files of ``change``."""
    from truepass.families.repair.fakefix.java.testfacts import collect

    return Sources(change, JavaFile, collect)
