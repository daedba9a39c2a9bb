"""The change under inspection: the files a patch touched, parsed on both sides, and test facts."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from truepass.families.repair.fakefix.syntax import Scope, parse, scopes
from truepass.families.repair.fakefix.testfacts import TestFacts, collect
from truepass.families.repair.schema import is_test_or_runner_file


@dataclass
class FilePair:
    """One changed Python file: its text and tree before and after the patch (None if absent)."""

    path: str
    before_text: str | None
    after_text: str | None
    before: ast.Module | None = field(init=False)
    after: ast.Module | None = field(init=False)

    def __post_init__(self) -> None:
        self.before = parse(self.before_text, self.path)
        self.after = parse(self.after_text, self.path)

    @cached_property
    def before_scopes(self) -> dict[str, Scope]:
        """Scopes of the file before the patch."""
        return scopes(self.before)

    @cached_property
    def after_scopes(self) -> dict[str, Scope]:
        """Scopes of the file after the patch."""
        return scopes(self.after)

    def counterpart(self, after: Scope) -> Scope | None:
        """The scope of the buggy file that ``after`` replaces: same qualified name, else a
        unique scope with the same simple name (a moved function), else None (new code)."""
        if after.name in self.before_scopes:
            return self.before_scopes[after.name]
        same = [s for s in self.before_scopes.values() if s.simple_name == after.simple_name]
        if len(same) == 1 and same[0].name not in self.after_scopes:
            return same[0]
        return None

    def all_scope_pairs(self) -> Iterator[tuple[Scope | None, Scope]]:
        """Every scope of the patched file, changed or not, with its buggy counterpart."""
        for scope in self.after_scopes.values():
            yield self.counterpart(scope), scope

    def scope_pairs(self) -> Iterator[tuple[Scope | None, Scope]]:
        """Every changed scope of the patched file with its buggy counterpart (None when new);
        a scope whose definitions read the same on both sides adds and removes nothing."""
        yield from self._changed_pairs

    @cached_property
    def _changed_pairs(self) -> list[tuple[Scope | None, Scope]]:
        before = (self.before_text or "").splitlines()
        after = (self.after_text or "").splitlines()
        out = []
        for scope in self.after_scopes.values():
            old = self.counterpart(scope)
            if old is None or old.kind == "module" or _text(old, before) != _text(scope, after):
                out.append((old, scope))
        return out


def _text(scope: Scope, lines: list[str]) -> list[str]:
    """Source lines of a scope's definitions (text-equal definitions are tree-equal)."""
    out: list[str] = []
    for root in scope.roots:
        start, end = getattr(root, "lineno", 1), getattr(root, "end_lineno", None) or len(lines)
        decorators = getattr(root, "decorator_list", [])
        start = min([start, *(d.lineno for d in decorators)])
        out += lines[start - 1 : end]
    return out


@dataclass
class Change:
    """Buggy code, the attempted files and the pristine visible tests, ready for the detectors."""

    buggy: dict[str, str]
    attempted: dict[str, str]
    tests: dict[str, str]

    def is_test(self, path: str) -> bool:
        """True for a test module or runner-configuration file."""
        return path in self.tests or is_test_or_runner_file(path)

    @cached_property
    def facts(self) -> TestFacts:
        """Expected values and inputs of the visible tests."""
        return collect(self.tests)

    def test_side(self) -> dict[str, tuple[str | None, str | None]]:
        """Changed test/runner files: path -> (pristine text, attempted text), None if absent."""
        out = {}
        paths = set(self.tests) | set(self.attempted) | set(self.buggy)
        for path in sorted(p for p in paths if self.is_test(p)):
            before = self.tests.get(path, self.buggy.get(path))
            after = self.attempted.get(path)
            if before != after:
                out[path] = (before, after)
        return out

    @cached_property
    def code(self) -> list[FilePair]:
        """Changed Python code files (not tests) whose patched text parses, or that are deleted."""
        out = []
        for path in sorted(set(self.buggy) | set(self.attempted)):
            if not path.endswith(".py") or self.is_test(path):
                continue
            before, after = self.buggy.get(path), self.attempted.get(path)
            if before == after:
                continue
            pair = FilePair(path, before, after)
            if after is None or pair.after is not None:
                out.append(pair)
        return out

    @cached_property
    def tests_changed(self) -> list[FilePair]:
        """Changed Python test-side files, parsed (a test file the patch broke parses as None)."""
        return [
            FilePair(path, before, after)
            for path, (before, after) in self.test_side().items()
            if path.endswith(".py")
        ]

    @cached_property
    def after_code_scopes(self) -> list[tuple[str, Scope]]:
        """Every scope of every patched code file (changed or not), for re-creation checks."""
        parsed = {fp.path: fp.after_scopes for fp in self.code}
        out = []
        for path, text in sorted(self.attempted.items()):
            if path.endswith(".py") and not self.is_test(path):
                found = parsed[path] if path in parsed else scopes(parse(text, path))
                out.extend((path, s) for s in found.values())
        return out
