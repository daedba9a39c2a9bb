"""What the visible tests reveal to a solver, in any language: expected values, inputs, and
which go together.

An *expected value* is the literal side of an assertion; an *input* is a literal passed to a call
in a test, a literal a test assigns to a variable, or an element a test loops over. A *pair* links
the inputs and the expected value of one assertion (``part_pairs`` also links them to the parts of
that value); ``by_callee`` lists the expected values of the assertions that call each function.
Each language reads its tests into these facts (``python/testfacts.py``, ``java/testfacts.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from truepass.families.repair.fakefix.values import Lit, parts


@dataclass
class TestFacts:
    """Literals of the visible tests, with where each came from (for explanations)."""

    expected: dict[Lit, str] = field(default_factory=dict)
    inputs: dict[Lit, str] = field(default_factory=dict)
    pairs: set[tuple[Lit, Lit]] = field(default_factory=set)
    by_callee: dict[str, set[Lit]] = field(default_factory=dict)
    part_pairs: set[tuple[Lit, Lit]] = field(default_factory=set)

    def add_expected(self, lit: Lit, where: str) -> None:
        """Record an expected value (first origin wins)."""
        self.expected.setdefault(lit, where)

    def add_input(self, lit: Lit, where: str) -> None:
        """Record an input and its parts."""
        for part in parts(lit):
            self.inputs.setdefault(part, where)

    def input_like(self, lit: Lit) -> Lit | None:
        """The input ``lit`` is, or a string input it makes up most of (``"102030"`` of
        ``"#102030"``, at least three characters and half the input); None otherwise."""
        if lit in self.inputs:
            return lit
        if lit[0] != "str" or len(lit[1]) < 3:
            return None
        for other in self.inputs:
            if other[0] == "str" and lit[1] in other[1] and 2 * len(lit[1]) >= len(other[1]):
                return other
        return None

    def record(self, expected: Lit, inputs: list[Lit], where: str, callees: Iterable[str]) -> None:
        """One assertion: its expected value, the inputs it passes (paired with the value and
        its parts) and the functions it calls (empty names are skipped)."""
        self.add_expected(expected, where)
        for lit in inputs:
            for part in parts(lit):
                self.pairs.add((part, expected))
                self.part_pairs.update((part, piece) for piece in parts(expected))
        for callee in callees:
            if callee:
                self.by_callee.setdefault(callee, set()).add(expected)
