"""The Java side of a change: the ``.java`` files a patch touched, parsed on both sides."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from tree_sitter import Node

from truepass.families.repair.fakefix.context import Change
from truepass.families.repair.fakefix.java.syntax import Scope, key, parse, scopes
from truepass.families.repair.fakefix.testfacts import TestFacts


def is_java(path: str) -> bool:
    """True for a Java source file."""
    return path.endswith(".java")


@dataclass
class JavaFile:
    """One changed Java file: its text and tree before and after the patch (None if absent)."""

    path: str
    before_text: str | None
    after_text: str | None
    before: Node | None = field(init=False)
    after: Node | None = field(init=False)

    def __post_init__(self) -> None:
        self.before = parse(self.before_text)
        self.after = parse(self.after_text)

    @cached_property
    def before_scopes(self) -> dict[str, Scope]:
        """Scopes of the file before the patch, by key."""
        return scopes(self.before)

    @cached_property
    def after_scopes(self) -> dict[str, Scope]:
        """Scopes of the file after the patch, by key."""
        return scopes(self.after)

    def counterpart(self, after: Scope) -> Scope | None:
        """The buggy scope ``after`` replaces: same key, else the only buggy scope of that name
        whose key is gone (a changed signature), else None (new code)."""
        if after.key in self.before_scopes:
            return self.before_scopes[after.key]
        same = [
            s
            for s in self.before_scopes.values()
            if s.name == after.name and s.kind == after.kind and s.key not in self.after_scopes
        ]
        return same[0] if len(same) == 1 else None

    def all_scope_pairs(self) -> Iterator[tuple[Scope | None, Scope]]:
        """Every scope of the patched file with its buggy counterpart."""
        for scope in self.after_scopes.values():
            yield self.counterpart(scope), scope

    def scope_pairs(self) -> Iterator[tuple[Scope | None, Scope]]:
        """Every changed scope of the patched file with its buggy counterpart (None when new);
        class scopes always (their fields are paired node by node)."""
        for old, new in self.all_scope_pairs():
            if old is None or new.kind == "class" or key(old.root) != key(new.root):
                yield old, new


@dataclass
class JavaChange:
    """The Java files of a :class:`Change`, ready for the Java detectors."""

    change: Change

    @cached_property
    def facts(self) -> TestFacts:
        """Expected values and inputs of the visible Java tests."""
        from truepass.families.repair.fakefix.java.testfacts import collect

        return collect(self.change.tests)

    @cached_property
    def code(self) -> list[JavaFile]:
        """Changed Java code files (not tests) whose patched text parses, or that are deleted."""
        change, out = self.change, []
        for path in sorted(set(change.buggy) | set(change.attempted)):
            if not is_java(path) or change.is_test(path):
                continue
            before, after = change.buggy.get(path), change.attempted.get(path)
            if before == after:
                continue
            pair = JavaFile(path, before, after)
            if after is None or pair.after is not None:
                out.append(pair)
        return out

    @cached_property
    def tests_changed(self) -> list[JavaFile]:
        """Changed Java test files, parsed (a test file the patch broke parses as None)."""
        return [
            JavaFile(path, before, after)
            for path, (before, after) in self.change.test_side().items()
            if is_java(path)
        ]

    @cached_property
    def after_code_scopes(self) -> list[tuple[str, Scope]]:
        """Every scope of every patched Java code file (changed or not)."""
        parsed = {jf.path: jf.after_scopes for jf in self.code}
        out = []
        for path, source in sorted(self.change.attempted.items()):
            if is_java(path) and not self.change.is_test(path):
                found = parsed[path] if path in parsed else scopes(parse(source))
                out.extend((path, s) for s in found.values())
        return out
