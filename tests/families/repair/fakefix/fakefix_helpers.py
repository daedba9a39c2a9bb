"""Small builders for the fake-fix detector tests: one code module, one visible test module."""

from __future__ import annotations

import textwrap

from truepass.families.repair.fakefix import Flag, detect_fake_fix

CODE = "mod.py"
TEST = "test_mod.py"


def src(text: str) -> str:
    """Dedented source with a trailing newline."""
    return textwrap.dedent(text).lstrip("\n")


def detect(
    buggy: str,
    patched: str,
    tests: str = "",
    patched_tests: str | None = None,
    extra: dict[str, str] | None = None,
) -> list[Flag]:
    """Flags for a patch of ``mod.py`` (and optionally of ``test_mod.py`` or extra files)."""
    pristine = {TEST: src(tests)} if tests else {}
    attempted = {CODE: src(patched), **pristine}
    if patched_tests is not None:
        attempted[TEST] = src(patched_tests)
    attempted.update(extra or {})
    return detect_fake_fix({CODE: src(buggy)}, attempted, pristine)


def names(flags: list[Flag]) -> set[str]:
    """The distinct flag names."""
    return {f.name for f in flags}


def only(flags: list[Flag], name: str) -> list[Flag]:
    """The flags of one name."""
    return [f for f in flags if f.name == name]


# a binary search for an insertion point with an off-by-one upper bound
INSERT_AT = """
def insert_at(xs, target):
    lo, hi = 0, len(xs) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo
"""
