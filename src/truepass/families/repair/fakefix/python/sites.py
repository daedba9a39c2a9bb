"""Where literals sit in code: comparisons, match patterns, returned values, the buggy code.

Helpers of :mod:`truepass.families.repair.fakefix.python.specialcase`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from truepass.families.repair.fakefix.python.bindings import Constants
from truepass.families.repair.fakefix.python.literals import Lit, render, value_of
from truepass.families.repair.fakefix.python.syntax import (
    Scope,
    is_docstring,
    of_type,
    parse,
    show,
    walk_body,
)

_EQ = (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)


def known_literals(buggy: dict[str, str]) -> set[Lit]:
    """Literal values written anywhere in the buggy code (docstrings excepted)."""
    known: set[Lit] = set()
    for path, text in buggy.items():
        if not path.endswith(".py"):
            continue
        tree = parse(text, path)
        if tree is None:
            continue
        docs = {id(n.value) for n in ast.walk(tree) if is_docstring(n)}
        for node in ast.walk(tree):
            if id(node) not in docs and isinstance(node, ast.expr):
                lit = value_of(node)
                if lit is not None:
                    known.add(lit)
    return known


def comparisons(cmp: ast.Compare) -> Iterator[tuple[Lit, bool]]:
    """(literal, is-equality) for each side of ``cmp`` compared with a non-literal expression."""
    operands = [cmp.left, *cmp.comparators]
    for a, op, b in zip(operands, cmp.ops, operands[1:], strict=False):
        la, lb = value_of(a), value_of(b)
        if isinstance(op, _EQ):
            if la is not None and lb is None:
                yield la, True
            if lb is not None and la is None:
                yield lb, True
        elif isinstance(op, ast.In | ast.NotIn) and la is None and lb and lb[0] in ("seq", "set"):
            for element in lb[1]:
                yield element, False


def pattern_literals(pattern: ast.pattern) -> Iterator[Lit]:
    """Literals a ``case`` pattern matches: values, and sequences made only of values."""
    for node in ast.walk(pattern):
        if isinstance(node, ast.MatchValue):
            lit = value_of(node.value)
            if lit is not None:
                yield lit
        elif isinstance(node, ast.MatchSequence) and all(
            isinstance(p, ast.MatchValue) for p in node.patterns
        ):
            items = [value_of(p.value) for p in node.patterns]
            if all(i is not None for i in items):
                yield ("seq", tuple(items))


def returned(
    stmts: list[ast.stmt], constants: Constants | None = None
) -> Iterator[tuple[ast.AST, Lit]]:
    """(statement, literal) for every literal returned or yielded under ``stmts``; a returned
    constant name gives the statements that bind it."""
    for node in walk_body(stmts):
        if isinstance(node, ast.Return | ast.Yield) and node.value is not None:
            yield from arms(node, node.value, constants)


def arms(
    at: ast.AST, value: ast.AST, constants: Constants | None = None
) -> Iterator[tuple[ast.AST, Lit]]:
    """(``at``, literal) for ``value`` or, for a conditional expression, each literal arm; for a
    name that only holds literals (with ``constants``), (binding statement, literal) of each."""
    if isinstance(value, ast.IfExp):
        yield from arms(at, value.body, constants)
        yield from arms(at, value.orelse, constants)
        return
    lit = value_of(value)
    if lit is not None:
        yield at, lit
    elif constants is not None:
        yield from constants.values(value)


def literal_returns(
    scope: Scope | None, constants: Constants | None = None
) -> list[tuple[ast.AST, Lit]]:
    """Every literal a scope returns or yields, with its statement (see :func:`returned`)."""
    return [
        x
        for n in of_type(scope, ast.Return, ast.Yield)
        if n.value is not None
        for x in arms(n, n.value, constants)
    ]


def gives(at: ast.AST, lit: Lit) -> str:
    """``returns 42``, or ``sets `result` to 42, which is returned`` for a binding."""
    if isinstance(at, ast.Assign | ast.AnnAssign):
        target = at.targets[0] if isinstance(at, ast.Assign) else at.target
        return f"sets `{show(target, 30)}` to {render(lit)}, which is returned"
    return f"returns {render(lit)}"


def became_constant(
    old: Scope | None, new: Scope, before: Constants | None = None, after: Constants | None = None
) -> bool:
    """A function that computed something now returns literals (or names bound only to one
    literal) only, without loops or branches (``raise`` guards aside)."""
    if old is None or new.kind != "function":
        return False
    value_after = after.value if after is not None else value_of
    value_before = before.value if before is not None else value_of
    returns = of_type(new, ast.Return)
    if not returns or any(value_after(r.value) is None for r in returns):
        return False
    old_returns = of_type(old, ast.Return)
    if all(value_before(r.value) is not None for r in old_returns):
        return False
    control = of_type(new, ast.For, ast.AsyncFor, ast.While, ast.Match, ast.IfExp, ast.If)
    return all(
        isinstance(n, ast.If) and all(isinstance(s, ast.Raise) for s in n.body) for n in control
    )
