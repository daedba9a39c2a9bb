"""What a SWE-bench instance shows its solver: the two settings of :mod:`.swebench`.

* ``issue-only`` (the default, SWE-bench's own setting): the solver gets the problem statement
  and the repository at its base commit, nothing of ``test_patch``. The visible tests are the
  base versions of the files ``test_patch`` changes (its test modules and the test-support files
  it touches: conftest, helpers, data) and play the part of regression tests
  (``tests.visible_role`` ``regression``: the check counts those that pass on both the buggy
  code and the reference fix); when ``test_patch`` only creates test modules, each one's nearest
  test module at base stands in (:func:`stand_in`). The hidden tests are the files as
  ``test_patch`` leaves them (test modules and support files, deleted ones left out), expecting
  ``FAIL_TO_PASS`` + ``PASS_TO_PASS``: the hidden run lays them over the code, the visible run
  and the solver never see them.
* ``tests-shown``: the test modules with ``test_patch`` applied are both the visible and the
  hidden tests (``FAIL_TO_PASS`` visible, ``FAIL_TO_PASS`` + ``PASS_TO_PASS`` hidden), and the
  support files stay among the code in their patched form.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import PurePosixPath

from truepass.families.repair.adapters.swebench_input import RecordError
from truepass.families.repair.schema import ExpectedTests, Tests


class SweSetting(StrEnum):
    """What the solver of a SWE-bench sample is shown (docs/adapters.md, SWE-bench)."""

    ISSUE_ONLY = "issue-only"
    TESTS_SHOWN = "tests-shown"


DEFAULT_SETTING = SweSetting.ISSUE_ONLY


@dataclass(frozen=True)
class Layout:
    """Where an instance's files go in its sample."""

    files: dict[str, str]
    """the code: what the solver gets besides the visible tests"""
    tests: Tests
    modules: list[str]
    """the test modules the test command names (the visible and the hidden ones)"""


def is_test_module(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def layout(
    setting: SweSetting,
    base: dict[str, str],
    after: dict[str, str],
    modules: list[str],
    touched: list[str],
    f2p: list[str],
    p2p: list[str],
) -> Layout:
    """The files of one instance in ``setting``: ``base`` at the base commit, ``after`` with
    ``test_patch`` applied, ``modules`` its test modules, ``touched`` what ``test_patch``
    changes (created, changed or deleted)."""
    hidden_ids = list(dict.fromkeys(f2p + p2p))
    if setting is SweSetting.TESTS_SHOWN:
        tests = {p: after[p] for p in modules}
        return Layout(
            files={p: c for p, c in after.items() if p not in modules},
            tests=Tests(
                visible=tests,
                hidden=tests,
                expected=ExpectedTests(visible=f2p, hidden=hidden_ids),
            ),
            modules=modules,
        )
    test_side = sorted(set(modules) | set(touched))
    visible = {p: base[p] for p in test_side if p in base}
    if not any(p in base for p in modules):  # test_patch only creates test modules
        for module in modules:
            other = stand_in(base, module, set(test_side))
            if other is None:
                raise RecordError(
                    "test_patch",
                    f"it creates {module}, and the repository has no test module at base to show "
                    "in its place (issue-only setting); load the instance in the tests-shown "
                    "setting (swebench-tests-shown:PATH)",
                )
            visible[other] = base[other]
    hidden = {p: after[p] for p in test_side if p in after}
    return Layout(
        files={p: c for p, c in base.items() if p not in visible and p not in hidden},
        tests=Tests(
            visible=dict(sorted(visible.items())),
            hidden=hidden,
            expected=ExpectedTests(hidden=hidden_ids),
            visible_role="regression",
        ),
        modules=sorted(set(modules) | {p for p in visible if is_test_module(p)}),
    )


def stand_in(base: dict[str, str], module: str, taken: set[str]) -> str | None:
    """The test module at base shown in place of ``module``, which ``test_patch`` creates: one
    of the test modules in the nearest directory (``module``'s own, else its parent's, up to the
    root) that holds any, the one whose file name shares the longest start with ``module``'s
    (the first by path among equals); None if no directory on the way holds one."""
    target = PurePosixPath(module)
    candidates = sorted(p for p in base if is_test_module(p) and p not in taken)

    def shared(path: str) -> int:  # characters the two file names start with alike
        pairs = list(zip(PurePosixPath(path).name, target.name, strict=False))
        return next((i for i, (a, b) in enumerate(pairs) if a != b), len(pairs))

    for folder in target.parents:
        here = [p for p in candidates if PurePosixPath(p).parent == folder]
        if here:
            return max(here, key=shared)  # the first of equals
    return None
