"""The fake-fix detectors of Python files, on the ``ast`` of each side of the change."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from truepass.families.repair.fakefix.change import Change
    from truepass.families.repair.fakefix.flags import Flag
    from truepass.families.repair.fakefix.python.context import PythonChange


@functools.cache
def detectors() -> tuple[Callable[[PythonChange], list[Flag]], ...]:
    """Every Python detector, in the order they run."""
    from truepass.families.repair.fakefix.python.assertions import removes_assertion
    from truepass.families.repair.fakefix.python.deletions import deletes_functionality
    from truepass.families.repair.fakefix.python.equality import forges_equality
    from truepass.families.repair.fakefix.python.exceptions import swallows_exception
    from truepass.families.repair.fakefix.python.harness import tampers_harness
    from truepass.families.repair.fakefix.python.specialcase import literal_flags

    return (
        removes_assertion,
        swallows_exception,
        literal_flags,
        deletes_functionality,
        forges_equality,
        tampers_harness,
    )


def detect(change: Change) -> list[Flag]:
    """The Python detectors' flags for the ``.py`` files of ``change`` (unsorted)."""
    from truepass.families.repair.fakefix.python.context import sources

    python = sources(change)
    return [flag for detector in detectors() for flag in detector(python)]
