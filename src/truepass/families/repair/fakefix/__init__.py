"""Fake-fix detectors: static checks of a patch against the buggy code and the visible tests.

A green test is not a fix. These detectors compare the syntax trees of the buggy code, the patched
code and the tests (never running anything) and raise the flags of :mod:`truepass.vocabulary`, each
with a one-line explanation naming the line it points at. Every detector looks only at what the
patch adds or removes: functions are matched by qualified name and statements are compared within
the same function, so code the patch leaves alone never raises a flag.

Known limits (measured by ``benchmarks/fakefix_detectors.py``, see docs/benchmarks.md): a
special case on a trivial literal (``page == 1``) is seen only when its branch gives a
non-trivial value the tests expect for that input, so ``start = 0 if page == 1 else ...`` and
``if s == "": return []`` pass; a narrow handler that swallows an error around a single old
statement is taken for a genuine fix unless it catches ``TypeError``; rewrites that replace a loop
by arithmetic or an explicit ``if`` chain can look like deleted functionality.

Java files (``.java``) are judged by the detectors of :mod:`truepass.families.repair.fakefix.java`
(tree-sitter), chosen by file extension; Python files by the detectors here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from truepass.families.repair.fakefix.flags import FLAG_NAMES, Flag
from truepass.families.repair.fakefix.java import involves_java

if TYPE_CHECKING:
    from truepass.families.repair.fakefix.context import Change

__all__ = ["FLAG_NAMES", "Flag", "detect_fake_fix", "flag_names"]


@functools.cache
def detectors() -> tuple[Callable[[Change], list[Flag]], ...]:
    """Every detector, in the order they run (loaded on first use: importing this package for
    its flag names stays cheap)."""
    from truepass.families.repair.fakefix.assertions import removes_assertion
    from truepass.families.repair.fakefix.deletions import deletes_functionality
    from truepass.families.repair.fakefix.equality import forges_equality
    from truepass.families.repair.fakefix.exceptions import swallows_exception
    from truepass.families.repair.fakefix.harness import tampers_harness
    from truepass.families.repair.fakefix.specialcase import literal_flags
    from truepass.families.repair.fakefix.touches import touches_tests

    return (
        touches_tests,
        removes_assertion,
        swallows_exception,
        literal_flags,
        deletes_functionality,
        forges_equality,
        tampers_harness,
    )


def detect_fake_fix(
    buggy: dict[str, str], attempted: dict[str, str], tests: dict[str, str]
) -> list[Flag]:
    """Flags for a patch, from static analysis only (no candidate code is run).

    Args:
        buggy: the sample's buggy code files, path -> content (no test files).
        attempted: every file as the patch would leave it, path -> content, including the test
            files (edited or not) and added files (``conftest.py`` ...) that the judge later
            drops: build it by applying the patch to ``{**buggy, **tests}``. A file of ``tests``
            missing from it counts as deleted by the patch.
        tests: the sample's pristine visible test files, path -> content: what the solver saw.
            Expected values and inputs for ``hardcodes-expected`` and ``special-cases-input``
            come from these. A test file is a key of ``tests`` or any path that
            :func:`truepass.families.repair.schema.is_test_or_runner_file` accepts.

    Returns:
        The flags, sorted by flag order of ``FLAG_NAMES``, file and line, without duplicates.
    """
    from truepass.families.repair.fakefix.context import Change

    change = Change(buggy=buggy, attempted=attempted, tests=tests)
    found: dict[tuple[str, str, int], Flag] = {}
    for detector in detectors():
        for flag in detector(change):
            found.setdefault((flag.name, flag.file, flag.line), flag)
    if involves_java(buggy, attempted, tests):  # .java files: the Java detectors (java/)
        from truepass.families.repair.fakefix.java import detect_java

        for flag in detect_java(change):
            found.setdefault((flag.name, flag.file, flag.line), flag)
    order = {name: i for i, name in enumerate(FLAG_NAMES)}
    return sorted(found.values(), key=lambda f: (order[f.name], f.file, f.line))


def flag_names(flags: list[Flag]) -> list[str]:
    """The distinct flag names of ``flags``, in ``FLAG_NAMES`` order."""
    present = {f.name for f in flags}
    return [name for name in FLAG_NAMES if name in present]
