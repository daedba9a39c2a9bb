"""The project layout of a suite source tree: one whole project, defects injected one at a time.

Used by ``build_suite.py`` when the source tree has a ``base/`` folder::

    SRC/suite.toml                  name, version, description; source, leakage (sample defaults)
    SRC/base/...                    the correct project: its code, and its tests under tests/
    SRC/defects/<id>/meta.toml      defect_type, description; optional fault_lines, source, leakage
    SRC/defects/<id>/inject.diff    unified diff base -> buggy (changes code files only)
    SRC/defects/<id>/visible/...    the issue's failing test(s), e.g. tests/test_issue_x.py
    SRC/defects/<id>/overfit.diff   optional: unified diff buggy -> a plausible but wrong fix

Every sample holds the whole buggy project: ``files`` is every file of ``base/`` outside
``tests/`` with the injection applied; ``tests.hidden`` is ``base/tests/`` (the project's own
test suite); ``tests.visible`` is ``visible/`` plus the ``__init__.py`` files of ``base/tests/``
that lie on the way to each visible test (a test package makes pytest put the workspace on
``sys.path``, so the tests can import the project). ``fix`` is the diff buggy -> base and
``known_overfit`` the diff buggy -> buggy with ``overfit.diff`` applied.

The diffs are applied with truepass's own patcher: a hunk whose context no longer matches
``base/`` is an error, so a defect cannot silently drift from the project it is injected into.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

from build_suite import IGNORED_NAMES, BuildError, make_sample, read_meta, read_tree

from truepass.errors import PatchError
from truepass.patches.apply import apply_diff

TESTS_DIR = "tests"
DEFECT_ENTRIES = frozenset({"meta.toml", "inject.diff", "visible", "overfit.diff"})


def split_base(base: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The project's code files and its test files (everything under ``tests/``)."""
    files = read_tree(base)
    tests = {p: c for p, c in files.items() if PurePosixPath(p).parts[0] == TESTS_DIR}
    code = {p: c for p, c in files.items() if p not in tests}
    if not code:
        raise BuildError(f"{base}: no code files outside {TESTS_DIR}/")
    if not tests:
        raise BuildError(f"{base}: no tests under {TESTS_DIR}/ (they are the hidden tests)")
    return code, tests


def _patched(files: dict[str, str], diff_path: Path) -> dict[str, str]:
    """``files`` with the diff at ``diff_path`` applied; it may change existing code files only."""
    try:
        diff = diff_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BuildError(f"{diff_path}: {exc}") from exc
    try:
        new = apply_diff(files, diff)
    except PatchError as exc:
        raise BuildError(f"{diff_path}: does not apply: {exc}") from exc
    if set(new) != set(files):
        added, removed = sorted(set(new) - set(files)), sorted(set(files) - set(new))
        raise BuildError(f"{diff_path}: adds {added} or removes {removed}; it may only change")
    if new == files:
        raise BuildError(f"{diff_path}: changes nothing")
    return new


def visible_tests(folder: Path, hidden: dict[str, str]) -> dict[str, str]:
    """``visible/`` plus the package ``__init__.py`` files its tests need from ``base/tests/``."""
    visible = read_tree(folder / "visible")
    if not visible:
        raise BuildError(f"{folder}: visible/ has no test files")
    for path in list(visible):
        parts = PurePosixPath(path).parts
        if parts[0] != TESTS_DIR or len(parts) < 2:
            raise BuildError(f"{folder}: visible test {path} must live under {TESTS_DIR}/")
        if path in hidden and not path.endswith("__init__.py"):
            raise BuildError(f"{folder}: visible test {path} has the name of a hidden test")
        for depth in range(1, len(parts)):
            init = "/".join((*parts[:depth], "__init__.py"))
            if init in hidden:
                visible.setdefault(init, hidden[init])
    return visible


def build_defect(
    folder: Path, code: dict[str, str], hidden: dict[str, str], defaults: dict[str, Any]
) -> dict[str, Any]:
    """One suite line from ``defects/<id>/``."""
    meta = read_meta(folder, DEFECT_ENTRIES)
    if not (folder / "inject.diff").is_file():
        raise BuildError(f"{folder}: inject.diff is missing")
    buggy = _patched(code, folder / "inject.diff")
    overfit = None
    if (folder / "overfit.diff").is_file():
        overfit = _patched(buggy, folder / "overfit.diff")
    visible = visible_tests(folder, hidden)
    return make_sample(folder, meta, defaults, buggy, code, visible, hidden, overfit)


def project_samples(src: Path, defaults: dict[str, Any]) -> list[dict[str, Any]]:
    """Every sample of a project-layout source tree, in defect-id order."""
    unknown = sorted(
        p.name
        for p in src.iterdir()
        if p.name not in IGNORED_NAMES | {"suite.toml", "base", "defects"}
    )
    if unknown:
        raise BuildError(f"{src}: unexpected entries {unknown} (suite.toml, base/, defects/)")
    code, hidden = split_base(src / "base")
    defects = src / "defects"
    folders = sorted(
        (p for p in defects.iterdir() if p.is_dir() and p.name not in IGNORED_NAMES)
        if defects.is_dir()
        else [],
        key=lambda p: p.name,
    )
    if not folders:
        raise BuildError(f"{defects}: no defect folders")
    return [build_defect(folder, code, hidden, defaults) for folder in folders]
