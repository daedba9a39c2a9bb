"""``special-cases-input`` and ``hardcodes-expected``: literals of the visible tests in new code.

- special-cases-input: a new comparison ``x == <lit>`` / ``x is <lit>`` / ``x in (<lit>, ...)``
  or a new ``case <lit>:`` where the literal is an input of the visible tests;
- hardcodes-expected: a new ``return <lit>`` (or ternary arm) where the literal is an expected
  value of the visible tests and appears nowhere in the buggy code, or a new comparison with
  such a value; inside a branch that special-cases an input, any returned expected value counts
  (even a trivial one, when the tests pair it with that input), and so does a non-trivial part of
  the value the tests expect for that input (``18`` of ``{"bolt": 18}``); a function turned into
  ``return <lit>`` where the literal is what the tests expect of that function;
- both: a new dict literal mapping test inputs to their expected values (a lookup table).
A returned value may come through a name that only ever holds literals (``result = 42; return
result``, a module constant ``EXPECTED = "abc"``; see
:mod:`truepass.families.repair.fakefix.python.bindings`), and a special-casing branch may set a
variable the function returns (``if n == 7: lo = 4``) instead of returning.

Trivial literals (0, 1, -1, booleans, None, empty containers) are the usual base cases and
guards of genuine fixes (``if n == 0: return 1``, ``if node is None: return 0``), so a comparison
with one counts as special-casing only with evidence: the branch it guards gives a *non-trivial*
literal that the visible tests expect in the very assertion that passes that trivial input
(``if page == 1: return [0, 1, 2]`` for ``assert paginate(items, 1, 3) == [0, 1, 2]``), or a
non-trivial part of that expected value. A trivial special case that gives a trivial value
(``if s == "": return []``) stays unflagged: it cannot be told from a genuine base case.
"""

from __future__ import annotations

import ast

from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.python.bindings import Constants, assigned_in, returned_names
from truepass.families.repair.fakefix.python.context import FilePair, PythonChange
from truepass.families.repair.fakefix.python.literals import Lit, is_trivial, render, value_of
from truepass.families.repair.fakefix.python.sites import (
    arms,
    became_constant,
    comparisons,
    gives,
    inputs_hit,
    known_literals,
    literal_returns,
    pattern_literals,
    returned,
    what,
)
from truepass.families.repair.fakefix.python.syntax import (
    MODULE,
    Scope,
    dump,
    line_of,
    of_type,
    pair,
    show,
)
from truepass.families.repair.fakefix.python.testfacts import TestFacts


class _Finder:
    """Collects the flags of one file's scope pairs."""

    def __init__(self, fp: FilePair, facts: TestFacts, known: set[Lit]) -> None:
        self.path, self.facts, self.known = fp.path, facts, known
        self.modules = fp.before_scopes.get(MODULE), fp.after_scopes.get(MODULE)
        self.flags: list[Flag] = []
        self.returns_flagged: set[int] = set()
        self.before = self.after = Constants(None, None)
        self.returns: set[str] = set()

    def flag(self, name: str, node: ast.AST, text: str) -> None:
        line = line_of(node)
        self.flags.append(Flag(name, self.path, line, f"line {line} {text}"))

    def scope(self, old: Scope | None, new: Scope) -> None:
        facts = self.facts
        self.before = Constants(old, self.modules[0])
        self.after = Constants(new, self.modules[1])
        self.returns = returned_names(new)
        _, compares = pair(of_type(old, ast.Compare), of_type(new, ast.Compare), dump)
        special: dict[int, list[Lit]] = {}
        trivial: dict[int, tuple[ast.Compare, list[Lit]]] = {}
        for cmp in compares:
            found = list(comparisons(cmp))
            hits = inputs_hit((lit for lit, _ in found), facts)
            if hits:
                special[id(cmp)] = hits
                self.flag(
                    "special-cases-input",
                    cmp,
                    f"branches on `{show(cmp, 50)}`: {what(hits[0], facts)}",
                )
            else:
                small = [lit for lit, _ in found if is_trivial(lit) and lit in facts.inputs]
                if small:
                    trivial[id(cmp)] = (cmp, small)
            for lit, is_eq in found:
                if is_eq and not is_trivial(lit) and lit in facts.expected:
                    self.flag(
                        "hardcodes-expected",
                        cmp,
                        f"compares with {render(lit)}, the expected value of {facts.expected[lit]}",
                    )
        _, cases = pair(of_type(old, ast.match_case), of_type(new, ast.match_case), dump)
        for case in cases:
            pattern = case.pattern
            lits = list(pattern_literals(pattern))
            hits = inputs_hit(iter(lits), facts)
            if hits:
                self.flag(
                    "special-cases-input",
                    pattern,
                    f"matches `case {show(pattern, 40)}`: {what(hits[0], facts)}",
                )
                self._branch_returns(case.body, hits)
            else:
                small = [lit for lit in lits if is_trivial(lit) and lit in facts.inputs]
                self._trivial_branch(pattern, self._branch_body(case.body), small)
        for node in of_type(new, ast.If, ast.IfExp, ast.While):
            subs = list(ast.walk(node.test))
            hits = [h for sub in subs for h in special.get(id(sub), [])]
            if isinstance(node, ast.IfExp):
                values = list(arms(node, node.body, self.after))
            else:
                values = self._branch_body(node.body)
            if hits:
                self._branch_values(values, hits)
                continue
            for sub in subs:
                if id(sub) in trivial:
                    cmp, small = trivial[id(sub)]
                    self._trivial_branch(cmp, values, small)
        self._plain_returns(old, new)
        self._tables(old, new)

    def _branch_body(self, body: list[ast.stmt]) -> list[tuple[ast.AST, Lit]]:
        """Literals a branch returns, directly, through a constant name, or by setting a
        variable the function returns."""
        return [*returned(body, self.after), *assigned_in(body, self.returns)]

    def _branch_returns(self, body: list[ast.stmt], hits: list[Lit]) -> None:
        self._branch_values(self._branch_body(body), hits)

    def _trivial_branch(
        self, at: ast.AST, values: list[tuple[ast.AST, Lit]], small: list[Lit]
    ) -> None:
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
                f"branches on `{show(at, 50)}`: {what(owner, facts)}, and the branch "
                f"{gives(where, lit)}, what the tests expect for it",
            )
            if id(where) not in self.returns_flagged:
                self.returns_flagged.add(id(where))
                self.flag(
                    "hardcodes-expected",
                    where,
                    f"{gives(where, lit)} for the tested input {render(owner)}: "
                    f"{self._expected_of(owner, lit)}",
                )
            return

    def _expected_of(self, owner: Lit, lit: Lit) -> str:
        if lit in self.facts.expected:
            return f"the expected value of {self.facts.expected[lit]}"
        return f"part of the expected value of {self.facts.inputs[owner]}"

    def _branch_values(self, values: list[tuple[ast.AST, Lit]], hits: list[Lit]) -> None:
        facts = self.facts
        for at, lit in values:
            if lit in facts.expected:
                paired = any((h, lit) in facts.pairs for h in hits)
                if not is_trivial(lit) or paired:
                    self.returns_flagged.add(id(at))
                    self.flag(
                        "hardcodes-expected",
                        at,
                        f"{gives(at, lit)} for the tested "
                        f"input {render(hits[0])}: the expected value of "
                        f"{facts.expected[lit]}",
                    )
            elif not is_trivial(lit):
                owner = next((h for h in hits if (h, lit) in facts.part_pairs), None)
                if owner is not None:
                    self.returns_flagged.add(id(at))
                    self.flag(
                        "hardcodes-expected",
                        at,
                        f"gives {render(lit)} for the tested "
                        f"input {render(owner)}: part of the expected value of "
                        f"{facts.inputs[owner]}",
                    )

    def _plain_returns(self, old: Scope | None, new: Scope) -> None:
        def key(item: tuple[ast.AST, Lit]) -> Lit:
            return item[1]

        before = literal_returns(old, self.before)
        after = literal_returns(new, self.after)
        _, added = pair(before, after, key)
        constant = became_constant(old, new, self.before, self.after)
        for at, lit in added:
            if id(at) in self.returns_flagged or lit not in self.facts.expected:
                continue
            if constant and lit in self.facts.by_callee.get(new.simple_name, set()):
                self.flag(
                    "hardcodes-expected",
                    at,
                    f"makes {new.name} return the constant "
                    f"{render(lit)}, the expected value of {self.facts.expected[lit]}",
                )
            elif not is_trivial(lit) and lit not in self.known:
                self.flag(
                    "hardcodes-expected",
                    at,
                    f"{gives(at, lit)}, the expected value of {self.facts.expected[lit]}",
                )
            else:
                continue
            self.returns_flagged.add(id(at))

    def _tables(self, old: Scope | None, new: Scope) -> None:
        _, dicts = pair(of_type(old, ast.Dict), of_type(new, ast.Dict), dump)
        for node in dicts:
            entries = [
                (value_of(k), value_of(v)) for k, v in zip(node.keys, node.values, strict=True)
            ]
            hits = [
                (k, v)
                for k, v in entries
                if k is not None
                and v is not None
                and not is_trivial(k)
                and k in self.facts.inputs
                and v in self.facts.expected
                and (not is_trivial(v) or (k, v) in self.facts.pairs)
            ]
            if hits and 2 * len(hits) >= len(entries):
                k, v = hits[0]
                where = self.facts.expected[v]
                self.flag("special-cases-input", node, f"keys a table on tested input {render(k)}")
                self.flag(
                    "hardcodes-expected",
                    node,
                    f"maps {render(k)} to {render(v)}, the expected value of {where}",
                )


def literal_flags(change: PythonChange) -> list[Flag]:
    """special-cases-input and hardcodes-expected flags of the patched code."""
    if not change.code:
        return []
    known = known_literals(change.buggy)
    flags = []
    for fp in change.code:
        finder = _Finder(fp, change.facts, known)
        for old, new in fp.scope_pairs():
            finder.scope(old, new)
        flags += finder.flags
    return flags
