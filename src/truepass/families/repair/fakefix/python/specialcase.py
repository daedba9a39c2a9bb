"""``special-cases-input`` and ``hardcodes-expected`` on Python syntax: the rules of
:mod:`truepass.families.repair.fakefix.literalrules`, where

- a comparison is ``x == <lit>`` / ``x is <lit>`` / ``x in (<lit>, ...)``, a label a new
  ``case <lit>:``, a lookup table a new dict literal;
- a returned value may come through a name that only ever holds literals (``result = 42; return
  result``, a module constant ``EXPECTED = "abc"``; see
  :mod:`truepass.families.repair.fakefix.python.bindings`), and a special-casing branch may set a
  variable the function returns (``if n == 7: lo = 4``) instead of returning.

A trivial special case that gives a trivial value (``if s == "": return []``) stays unflagged: it
cannot be told from a genuine base case; ``if page == 1: return [0, 1, 2]`` for ``assert
paginate(items, 1, 3) == [0, 1, 2]`` is flagged.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.literalrules import LiteralRules, Table, Values
from truepass.families.repair.fakefix.pairing import pair
from truepass.families.repair.fakefix.python.bindings import (
    Constants,
    assigned_in,
    returned_names,
)
from truepass.families.repair.fakefix.python.context import FilePair, PythonChange
from truepass.families.repair.fakefix.python.literals import Lit, render, value_of
from truepass.families.repair.fakefix.python.sites import (
    arms,
    became_constant,
    comparisons,
    gives,
    known_literals,
    literal_returns,
    pattern_literals,
    returned,
)
from truepass.families.repair.fakefix.python.syntax import (
    FORMS,
    MODULE,
    Scope,
    dump,
    of_type,
    show,
)
from truepass.families.repair.fakefix.testfacts import TestFacts


class _Rules(LiteralRules[ast.AST]):
    """The literal rules on one Python file."""

    def __init__(self, fp: FilePair, facts: TestFacts, known: set[Lit]) -> None:
        super().__init__(fp, facts, known)
        self.modules = fp.before_scopes.get(MODULE), fp.after_scopes.get(MODULE)
        self.before = self.after = Constants(None, None)
        self.returned_names: set[str] = set()

    forms = FORMS

    def render(self, lit: Lit) -> str:
        return render(lit)

    def gives(self, at: ast.AST, lit: Lit) -> str:
        return gives(at, lit)

    def enter(self, old: Scope | None, new: Scope) -> None:
        self.before = Constants(old, self.modules[0])
        self.after = Constants(new, self.modules[1])
        self.returned_names = returned_names(new)

    def comparisons(self, old: Scope | None, new: Scope) -> list[ast.AST]:
        return list(pair(of_type(old, ast.Compare), of_type(new, ast.Compare), dump)[1])

    def compared(self, cmp: ast.AST) -> Iterator[tuple[Lit, bool]]:
        assert isinstance(cmp, ast.Compare)
        return comparisons(cmp)

    def _body(self, body: list[ast.stmt]) -> Values[ast.AST]:
        """Literals a branch returns, directly, through a constant name, or by setting a
        variable the function returns."""
        return [*returned(body, self.after), *assigned_in(body, self.returned_names)]

    def cases(
        self, old: Scope | None, new: Scope
    ) -> Iterator[tuple[ast.AST, str, list[Lit], Values[ast.AST]]]:
        _, cases = pair(of_type(old, ast.match_case), of_type(new, ast.match_case), dump)
        for case in cases:
            said = f"matches `case {show(case.pattern, 40)}`"
            yield case.pattern, said, list(pattern_literals(case.pattern)), self._body(case.body)

    def branches(self, new: Scope) -> Iterator[tuple[list[ast.AST], Values[ast.AST]]]:
        for node in of_type(new, ast.If, ast.IfExp, ast.While):
            if isinstance(node, ast.IfExp):
                values = list(arms(node, node.body, self.after))
            else:
                values = self._body(node.body)
            yield list(ast.walk(node.test)), values

    def returns(
        self, old: Scope | None, new: Scope
    ) -> tuple[Values[ast.AST], Values[ast.AST], bool]:
        return (
            literal_returns(old, self.before),
            literal_returns(new, self.after),
            became_constant(old, new, self.before, self.after),
        )

    def tables(self, old: Scope | None, new: Scope) -> Iterator[tuple[ast.AST, Table]]:
        _, dicts = pair(of_type(old, ast.Dict), of_type(new, ast.Dict), dump)
        for node in dicts:
            yield (
                node,
                [(value_of(k), value_of(v)) for k, v in zip(node.keys, node.values, strict=True)],
            )


def literal_flags(change: PythonChange) -> list[Flag]:
    """special-cases-input and hardcodes-expected flags of the patched code."""
    if not change.code:
        return []
    return _Rules.file_flags(change, known_literals(change.buggy))
