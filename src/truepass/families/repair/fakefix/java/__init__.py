"""Fake-fix detectors for Java patches (``.java`` files), on tree-sitter syntax trees.

The same flags and rules as the Python detectors where Java has the same thing
(docs/results.md, "Java"): ``removes-assertion`` (an ``assert``, a ``throw`` guard or a
precondition check gone from code; a JUnit assertion gone from or disabled in a test),
``swallows-exception`` (a broad, bug-hiding or empty ``catch``, or a swallowing one around an old
block), ``hardcodes-expected`` and ``special-cases-input`` (literals of the visible JUnit tests
in new comparisons, ``case`` labels, returns and lookup tables) and ``deletes-functionality``
(methods, loops, branches, return paths and calls gone), ``forges-equality`` (an ``equals``,
``hashCode``, ``compareTo``, ``compare`` or ``Comparator`` lambda added or changed to answer a
constant or to ignore one of the objects it compares: ``equality.py``) and ``tampers-harness``
(JUnit runners and rules, ``System.exit``/``Runtime.halt`` and stream rewiring in library code,
reflection on JUnit or the harness, uncaught-exception handlers, shutdown hooks: ``harness.py``).
``touches-tests`` is language-independent and raised by the shared detector. Measured on
``tests/data/fakefix/java_labelled.jsonl`` by ``benchmarks/fakefix_detectors.py --set java``.

Static only: Java sources are parsed, never compiled or run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from truepass.families.repair.fakefix.change import Change
    from truepass.families.repair.fakefix.flags import Flag
    from truepass.families.repair.fakefix.java.context import JavaChange

__all__ = ["detect"]


def _detectors() -> tuple[Callable[[JavaChange], list[Flag]], ...]:
    from truepass.families.repair.fakefix.java.assertions import removes_assertion
    from truepass.families.repair.fakefix.java.deletions import deletes_functionality
    from truepass.families.repair.fakefix.java.equality import forges_equality
    from truepass.families.repair.fakefix.java.exceptions import swallows_exception
    from truepass.families.repair.fakefix.java.harness import tampers_harness
    from truepass.families.repair.fakefix.java.specialcase import literal_flags

    return (
        removes_assertion,
        swallows_exception,
        literal_flags,
        deletes_functionality,
        forges_equality,
        tampers_harness,
    )


def detect(change: Change) -> list[Flag]:
    """The Java detectors' flags for the ``.java`` files of ``change`` (unsorted)."""
    from truepass.families.repair.fakefix.java.context import sources

    java = sources(change)
    return [flag for detector in _detectors() for flag in detector(java)]
