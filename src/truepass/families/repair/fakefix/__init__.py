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

The detectors are per language: ``python/`` (the ``ast`` of each file) and ``java/``
(tree-sitter), each reached through its :class:`~truepass.families.repair.languages.base.Language`.
What the languages share lives here: the change and its files (``change.py``), literal keys
(``values.py``), test facts (``testfacts.py``), the rules of the literal flags
(``literalrules.py``), the flags (``flags.py``) and ``touches-tests`` (``touches.py``).
"""

from __future__ import annotations

from truepass.families.repair.fakefix.flags import FLAG_NAMES, Flag

__all__ = ["FLAG_NAMES", "Flag", "detect_fake_fix", "flag_names"]


def detect_fake_fix(
    buggy: dict[str, str], attempted: dict[str, str], tests: dict[str, str]
) -> list[Flag]:
    """Flags for a patch, from static analysis only (no candidate code is run).

    ``touches-tests`` is raised for every language; the other flags by the detectors of each
    language whose files the change holds (:meth:`Language.fake_fix_flags
    <truepass.families.repair.languages.base.Language.fake_fix_flags>`).

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
    from truepass.families.repair import languages
    from truepass.families.repair.fakefix.change import Change
    from truepass.families.repair.fakefix.touches import touches_tests

    change = Change(buggy=buggy, attempted=attempted, tests=tests)
    flags = touches_tests(change)
    for name in languages.names():
        language = languages.get(name)
        if change.touches(language.code_suffix):
            flags += language.fake_fix_flags(change)
    found: dict[tuple[str, str, int], Flag] = {}
    for flag in flags:
        found.setdefault((flag.name, flag.file, flag.line), flag)
    order = {name: i for i, name in enumerate(FLAG_NAMES)}
    return sorted(found.values(), key=lambda f: (order[f.name], f.file, f.line))


def flag_names(flags: list[Flag]) -> list[str]:
    """The distinct flag names of ``flags``, in ``FLAG_NAMES`` order."""
    present = {f.name for f in flags}
    return [name for name in FLAG_NAMES if name in present]
