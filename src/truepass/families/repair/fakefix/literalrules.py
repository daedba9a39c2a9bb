"""The rules of ``special-cases-input`` and ``hardcodes-expected``, for every language.

- special-cases-input: a new comparison with a literal, or a new ``case`` label, where the literal
  is an input of the visible tests (or a string that makes up most of one);
- hardcodes-expected: a new returned literal (or conditional arm) that the visible tests expect
  and that appears nowhere in the buggy code, or a new equality comparison with such a value;
  inside a branch that special-cases an input, any returned expected value counts (even a
  trivial one, when the tests pair it with that input), and so does a non-trivial part of the
  value the tests expect for that input; a function turned into ``return <lit>`` where the
  literal is what the tests expect of that function;
- both: a new lookup table mapping test inputs to their expected values.

Trivial literals (0, 1, -1, booleans, None, empty containers) are the usual base cases and
guards of genuine fixes, so a comparison with one counts as special-casing only with evidence:
the branch it guards gives a *non-trivial* literal that the visible tests expect in the very
assertion that passes that trivial input (or a non-trivial part of that expected value).

:class:`LiteralRules` applies these rules to one file; a language subclasses it with where the
literals sit in its syntax (``python/specialcase.py``, ``java/specialcase.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Generic, TypeVar

from truepass.families.repair.fakefix.change import SourcePair, Sources
from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.nodes import NodeForms
from truepass.families.repair.fakefix.pairing import pair
from truepass.families.repair.fakefix.testfacts import TestFacts
from truepass.families.repair.fakefix.values import Lit, is_trivial

N = TypeVar("N")
"""a node of the language's syntax tree"""
Values = list[tuple[N, Lit]]
"""(where, literal) for each literal a piece of code gives"""
Table = list[tuple[Lit | None, Lit | None]]
"""the (key, value) entries of a lookup table, None where not a literal"""


class LiteralRules(Generic[N]):
    """Collects the literal flags of one file's changed scopes (:meth:`scope` for each)."""

    forms: NodeForms[N]
    """how the language's nodes read"""

    def __init__(self, fp: SourcePair[Any], facts: TestFacts, known: set[Lit]) -> None:
        self.path, self.facts, self.known = fp.path, facts, known
        self.flags: list[Flag] = []
        self.returns_flagged: set[int] = set()

    # -- what a language gives ---------------------------------------------------------------

    def render(self, lit: Lit) -> str:
        """A literal as the language writes it."""
        raise NotImplementedError

    def gives(self, at: N, lit: Lit) -> str:
        """``returns 42``, or ``sets `x` to 42, which is returned`` for a binding."""
        raise NotImplementedError

    def enter(self, old: Any, new: Any) -> None:
        """Prepare for a scope pair (the names bound to literals on each side)."""

    def comparisons(self, old: Any, new: Any) -> list[N]:
        """The comparison nodes ``new`` adds."""
        raise NotImplementedError

    def compared(self, cmp: N) -> Iterator[tuple[Lit, bool]]:
        """(literal, is-equality) for each side of ``cmp`` compared with a non-literal."""
        raise NotImplementedError

    def cases(self, old: Any, new: Any) -> Iterator[tuple[N, str, list[Lit], Values[N]]]:
        """For each ``case`` label ``new`` adds: where, how to say it ("matches `case 7`"), the
        literals it matches and what its branch gives."""
        raise NotImplementedError

    def branches(self, new: Any) -> Iterator[tuple[list[N], Values[N]]]:
        """For each branch of ``new``: the nodes of its condition and what the branch gives."""
        raise NotImplementedError

    def returns(self, old: Any, new: Any) -> tuple[Values[N], Values[N], bool]:
        """The literals the scope returns before and after, and whether it became a constant
        (computed before, only literals returned now, no loops or branches but guards)."""
        raise NotImplementedError

    def tables(self, old: Any, new: Any) -> Iterator[tuple[N, Table]]:
        """The lookup tables ``new`` adds, with their entries."""
        raise NotImplementedError

    # -- the rules ---------------------------------------------------------------------------

    @classmethod
    def file_flags(cls, change: Sources[Any], known: set[Lit]) -> list[Flag]:
        """The literal flags of every changed code file of ``change``; ``known`` holds the
        literals written anywhere in the buggy code."""
        flags = []
        for fp in change.code:
            rules = cls(fp, change.facts, known)
            for old, new in fp.scope_pairs():
                rules.scope(old, new)
            flags += rules.flags
        return flags

    def flag(self, name: str, node: N, text: str) -> None:
        line = self.forms.line(node)
        self.flags.append(Flag(name, self.path, line, f"line {line} {text}"))

    def what(self, hit: Lit) -> str:
        """``7 is an input of test_x``."""
        return f"{self.render(hit)} is an input of {self.facts.inputs[hit]}"

    def inputs_hit(self, lits: list[Lit]) -> list[Lit]:
        """The test inputs (non-trivial) that ``lits`` are or are cut from."""
        out = []
        for lit in lits:
            found = None if is_trivial(lit) else self.facts.input_like(lit)
            if found is not None:
                out.append(found)
        return out

    def scope(self, old: Any, new: Any) -> None:
        """The flags of one changed scope (``old`` its buggy counterpart, None when new)."""
        facts = self.facts
        self.enter(old, new)
        special: dict[int, list[Lit]] = {}
        trivial: dict[int, tuple[N, list[Lit]]] = {}
        for cmp in self.comparisons(old, new):
            found = list(self.compared(cmp))
            hits = self.inputs_hit([lit for lit, _ in found])
            if hits:
                special[self.forms.ident(cmp)] = hits
                self.flag(
                    "special-cases-input", cmp, f"branches on `{self.forms.show(cmp, 50)}`: "
                    f"{self.what(hits[0])}",
                )  # fmt: skip
            else:
                small = [lit for lit, _ in found if is_trivial(lit) and lit in facts.inputs]
                if small:
                    trivial[self.forms.ident(cmp)] = (cmp, small)
            for lit, is_eq in found:
                if is_eq and not is_trivial(lit) and lit in facts.expected:
                    self.flag(
                        "hardcodes-expected", cmp, f"compares with {self.render(lit)}, the "
                        f"expected value of {facts.expected[lit]}",
                    )  # fmt: skip
        for at, said, lits, values in self.cases(old, new):
            hits = self.inputs_hit(lits)
            if hits:
                self.flag("special-cases-input", at, f"{said}: {self.what(hits[0])}")
                self._branch_values(values, hits)
            else:
                small = [lit for lit in lits if is_trivial(lit) and lit in facts.inputs]
                self._trivial_branch(at, values, small)
        for condition, values in self.branches(new):
            hits = [h for sub in condition for h in special.get(self.forms.ident(sub), [])]
            if hits:
                self._branch_values(values, hits)
                continue
            for sub in condition:
                if self.forms.ident(sub) in trivial:
                    cmp, small = trivial[self.forms.ident(sub)]
                    self._trivial_branch(cmp, values, small)
        self._plain_returns(old, new)
        self._tables(old, new)

    def _trivial_branch(self, at: N, values: Values[N], small: list[Lit]) -> None:
        """A branch on a trivial tested input that gives a non-trivial literal the tests expect
        in the assertion that passes that input (or a non-trivial part of it)."""
        facts = self.facts
        for where, lit in values:
            if is_trivial(lit):
                continue
            owner = next(
                (h for h in small if (h, lit) in facts.pairs or (h, lit) in facts.part_pairs),
                None,
            )
            if owner is None:
                continue
            self.flag(
                "special-cases-input",
                at,
                f"branches on `{self.forms.show(at, 50)}`: {self.what(owner)}, and the branch "
                f"{self.gives(where, lit)}, what the tests expect for it",
            )
            if self.forms.ident(where) not in self.returns_flagged:
                self.returns_flagged.add(self.forms.ident(where))
                self.flag(
                    "hardcodes-expected",
                    where,
                    f"{self.gives(where, lit)} for the tested input {self.render(owner)}: "
                    f"{self._expected_of(owner, lit)}",
                )
            return

    def _expected_of(self, owner: Lit, lit: Lit) -> str:
        if lit in self.facts.expected:
            return f"the expected value of {self.facts.expected[lit]}"
        return f"part of the expected value of {self.facts.inputs[owner]}"

    def _branch_values(self, values: Values[N], hits: list[Lit]) -> None:
        facts = self.facts
        for at, lit in values:
            if lit in facts.expected:
                paired = any((h, lit) in facts.pairs for h in hits)
                if not is_trivial(lit) or paired:
                    self.returns_flagged.add(self.forms.ident(at))
                    self.flag(
                        "hardcodes-expected",
                        at,
                        f"{self.gives(at, lit)} for the tested input {self.render(hits[0])}: "
                        f"the expected value of {facts.expected[lit]}",
                    )
            elif not is_trivial(lit):
                owner = next((h for h in hits if (h, lit) in facts.part_pairs), None)
                if owner is not None:
                    self.returns_flagged.add(self.forms.ident(at))
                    self.flag(
                        "hardcodes-expected",
                        at,
                        f"gives {self.render(lit)} for the tested input {self.render(owner)}: "
                        f"part of the expected value of {facts.inputs[owner]}",
                    )

    def _plain_returns(self, old: Any, new: Any) -> None:
        before, after, constant = self.returns(old, new)
        _, added = pair(before, after, lambda item: item[1])
        expected = self.facts.expected
        for at, lit in added:
            if self.forms.ident(at) in self.returns_flagged or lit not in expected:
                continue
            if constant and lit in self.facts.by_callee.get(new.simple_name, set()):
                self.flag(
                    "hardcodes-expected", at, f"makes {new.name} return the constant "
                    f"{self.render(lit)}, the expected value of {expected[lit]}",
                )  # fmt: skip
            elif not is_trivial(lit) and lit not in self.known:
                self.flag(
                    "hardcodes-expected", at,
                    f"{self.gives(at, lit)}, the expected value of {expected[lit]}",
                )  # fmt: skip
            else:
                continue
            self.returns_flagged.add(self.forms.ident(at))

    def _tables(self, old: Any, new: Any) -> None:
        facts = self.facts
        for node, entries in self.tables(old, new):
            hits = [
                (k, v)
                for k, v in entries
                if k is not None
                and v is not None
                and not is_trivial(k)
                and k in facts.inputs
                and v in facts.expected
                and (not is_trivial(v) or (k, v) in facts.pairs)
            ]
            if hits and 2 * len(hits) >= len(entries):
                k, v = hits[0]
                self.flag(
                    "special-cases-input", node, f"keys a table on tested input {self.render(k)}"
                )
                self.flag(
                    "hardcodes-expected", node, f"maps {self.render(k)} to {self.render(v)}, the "
                    f"expected value of {facts.expected[v]}",
                )  # fmt: skip
