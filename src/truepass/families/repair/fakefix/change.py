"""The change under inspection, for every language: the files a patch touched, parsed on both
sides by their language's syntax, and the facts of the visible tests.

:class:`Change` knows no language: the buggy code, the attempted files and the pristine tests,
and which of them are test-side files. :class:`SourcePair` is one changed file of a language,
parsed before and after the patch; a language subclasses it with its parser, its scopes and how a
patched scope finds its buggy counterpart. :class:`Sources` is the view of a change that a
language's detectors read: its changed code files, its changed test files, every scope of its
patched code and its test facts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from truepass.families.repair.fakefix.testfacts import TestFacts
from truepass.families.repair.schema import is_test_or_runner_file


class ScopeLike(Protocol):
    """What the shared code reads of a language's scope."""

    name: str
    kind: str

    @property
    def simple_name(self) -> str: ...


S = TypeVar("S", bound=ScopeLike)
F = TypeVar("F", bound="SourcePair[Any]")


@dataclass
class Change:
    """Buggy code, the attempted files and the pristine visible tests, in every language."""

    buggy: dict[str, str]
    attempted: dict[str, str]
    tests: dict[str, str]

    def is_test(self, path: str) -> bool:
        """True for a test module or runner-configuration file."""
        return path in self.tests or is_test_or_runner_file(path)

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

    def touches(self, suffix: str) -> bool:
        """True when a file of the change (code, attempted or test) ends with ``suffix``."""
        return any(p.endswith(suffix) for m in (self.buggy, self.attempted, self.tests) for p in m)


@dataclass
class SourcePair(Generic[S]):
    """One changed file: its text and tree before and after the patch (None if absent).

    A language sets :attr:`suffix` and gives :meth:`parse`, :meth:`scopes`, :meth:`counterpart`
    and :meth:`changed`."""

    suffix: ClassVar[str]
    path: str
    before_text: str | None
    after_text: str | None
    before: Any = field(init=False)
    after: Any = field(init=False)

    def __post_init__(self) -> None:
        self.before = self.parse(self.before_text)
        self.after = self.parse(self.after_text)

    def parse(self, text: str | None) -> Any:
        """The file's tree, or None when there is no text or it does not parse."""
        raise NotImplementedError

    @classmethod
    def scopes(cls, tree: Any) -> dict[str, S]:
        """The scopes of a tree (empty for None), keyed as :meth:`counterpart` looks them up."""
        raise NotImplementedError

    def counterpart(self, after: S) -> S | None:
        """The scope of the buggy file that ``after`` replaces, None for new code."""
        raise NotImplementedError

    def changed(self, old: S, new: S) -> bool:
        """Whether a scope and its counterpart may add or remove something."""
        raise NotImplementedError

    @cached_property
    def before_scopes(self) -> dict[str, S]:
        """Scopes of the file before the patch."""
        return self.scopes(self.before)

    @cached_property
    def after_scopes(self) -> dict[str, S]:
        """Scopes of the file after the patch."""
        return self.scopes(self.after)

    def all_scope_pairs(self) -> Iterator[tuple[S | None, S]]:
        """Every scope of the patched file, changed or not, with its buggy counterpart."""
        for scope in self.after_scopes.values():
            yield self.counterpart(scope), scope

    def scope_pairs(self) -> Iterator[tuple[S | None, S]]:
        """Every changed scope of the patched file with its buggy counterpart (None when new)."""
        yield from self._changed_pairs

    @cached_property
    def _changed_pairs(self) -> list[tuple[S | None, S]]:
        return [
            (old, new)
            for old, new in self.all_scope_pairs()
            if old is None or self.changed(old, new)
        ]


@dataclass
class Sources(Generic[F]):
    """The files of one language in a :class:`Change`, ready for that language's detectors."""

    change: Change
    file: type[F]
    collect: Callable[[dict[str, str]], TestFacts]
    """the language's reading of the visible tests"""

    @property
    def buggy(self) -> dict[str, str]:
        """The buggy code files of the change."""
        return self.change.buggy

    @cached_property
    def facts(self) -> TestFacts:
        """Expected values and inputs of the visible tests of this language."""
        return self.collect(self.change.tests)

    def _code_path(self, path: str) -> bool:
        return path.endswith(self.file.suffix) and not self.change.is_test(path)

    @cached_property
    def code(self) -> list[F]:
        """Changed code files (not tests) whose patched text parses, or that are deleted."""
        change, out = self.change, []
        for path in sorted(set(change.buggy) | set(change.attempted)):
            before, after = change.buggy.get(path), change.attempted.get(path)
            if not self._code_path(path) or before == after:
                continue
            pair = self.file(path, before, after)
            if after is None or pair.after is not None:
                out.append(pair)
        return out

    @cached_property
    def tests_changed(self) -> list[F]:
        """Changed test-side files, parsed (a test file the patch broke parses as None)."""
        return [
            self.file(path, before, after)
            for path, (before, after) in self.change.test_side().items()
            if path.endswith(self.file.suffix)
        ]

    def changed_files(self) -> Iterator[tuple[F, bool]]:
        """Every changed file of the language, code first, each with whether it is code (else a
        test-side file)."""
        yield from ((fp, True) for fp in self.code)
        yield from ((fp, False) for fp in self.tests_changed)

    @cached_property
    def after_code_scopes(self) -> list[tuple[str, Any]]:
        """Every scope of every patched code file (changed or not), for re-creation checks."""
        parsed = {fp.path: fp.after_scopes for fp in self.code}
        out = []
        for path, text in sorted(self.change.attempted.items()):
            if self._code_path(path):
                found = parsed.get(path)
                if found is None:
                    found = self.file(path, None, text).after_scopes
                out.extend((path, s) for s in found.values())
        return out
