"""Names that only ever hold literals: ``result = 42; return result``, ``EXPECTED = "abc"``.

A name counts as a constant of a function when every binding of it in that function assigns a
literal (``x = 4``, ``x: int = 4``, ``a, b = 1, 2``); any other binding (an argument, a loop
target, ``x += 1``, ``x = f()``, ``with ... as x``, an import, a nested definition, ``del x``),
an item or attribute assignment (``x[0] = 1``) or a method call on it (``x.append(1)``) makes it
a variable. A name the function does not bind at all is looked up the same way among
the module's top-level bindings (``global`` names too). The values are literal keys of
:mod:`truepass.families.repair.fakefix.python.literals`, each with the statement that binds it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from truepass.families.repair.fakefix.python.literals import Lit, value_of
from truepass.families.repair.fakefix.python.syntax import DEFS, Scope, walk_body

Binding = tuple[ast.stmt, Lit]


def _names(target: ast.AST) -> list[str]:
    """The names a binding target rebinds or mutates (``d`` of ``d[k]``, ``a`` of ``a.b``)."""
    if isinstance(target, ast.Tuple | ast.List):
        return [name for elt in target.elts for name in _names(elt)]
    while isinstance(target, ast.Starred | ast.Attribute | ast.Subscript):
        target = target.value
    return [target.id] if isinstance(target, ast.Name) else []


def _pairs(target: ast.AST, value: ast.AST | None) -> Iterator[tuple[str, Lit | None]]:
    """(name, literal or None) for each name ``target`` binds from ``value``."""
    if isinstance(target, ast.Name):
        yield target.id, value_of(value)
        return
    if isinstance(target, ast.Tuple | ast.List):
        elts = value.elts if isinstance(value, ast.Tuple | ast.List) else None
        if elts is not None and len(elts) == len(target.elts):
            for sub, part in zip(target.elts, elts, strict=True):
                yield from _pairs(sub, part)
            return
    for name in _names(target):
        yield name, None


def _bindings(scope: Scope) -> Iterator[tuple[str, ast.stmt | None, Lit | None]]:
    """(name, statement, literal or None) for every binding made in ``scope``."""
    for root in scope.roots:
        if isinstance(root, ast.FunctionDef | ast.AsyncFunctionDef):
            args = root.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            for arg in every:
                if arg is not None:
                    yield arg.arg, None, None
    for node in scope.nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name, lit in _pairs(target, node.value):
                    yield name, node, lit
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            for name, lit in _pairs(node.target, node.value):
                yield name, node, lit
        elif isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor | ast.comprehension):
            for name in _names(node.target):
                yield name, None, None
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            for name in _names(node.optional_vars):
                yield name, None, None
        elif isinstance(node, ast.NamedExpr | ast.Delete):
            targets = [node.target] if isinstance(node, ast.NamedExpr) else node.targets
            for target in targets:
                for name in _names(target):
                    yield name, None, None
        elif isinstance(node, ast.ExceptHandler) and node.name:
            yield node.name, None, None
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                yield (alias.asname or alias.name).split(".", 1)[0], None, None
        elif isinstance(node, DEFS):
            yield node.name, None, None
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            # ``xs.append(4)`` may change what ``xs`` holds
            for name in _names(node.func.value):
                yield name, None, None


def _table(scope: Scope | None) -> tuple[dict[str, list[Binding]], set[str], set[str]]:
    """Constant names with their bindings, every bound name, and ``global`` names."""
    constants: dict[str, list[Binding]] = {}
    bound: set[str] = set()
    variables: set[str] = set()
    declared: set[str] = set()
    if scope is None:
        return constants, bound, declared
    for node in scope.nodes:
        if isinstance(node, ast.Global):
            declared.update(node.names)
    for name, stmt, lit in _bindings(scope):
        bound.add(name)
        if stmt is None or lit is None:
            variables.add(name)
        else:
            constants.setdefault(name, []).append((stmt, lit))
    for name in variables:
        constants.pop(name, None)
    return constants, bound, declared


class Constants:
    """The literal-only names visible in one function (its own first, then the module's)."""

    def __init__(self, scope: Scope | None, module: Scope | None) -> None:
        self.local, self.bound, self.declared = _table(scope)
        if module is None or (scope is not None and scope.kind == "module"):
            self.outer: dict[str, list[Binding]] = {}
        else:
            self.outer = _table(module)[0]

    def bindings(self, name: str) -> list[Binding]:
        """The (statement, literal) bindings of ``name``; empty when it is not a constant."""
        if name in self.declared:
            return [] if name in self.bound else self.outer.get(name, [])
        if name in self.bound:
            return self.local.get(name, [])
        return self.outer.get(name, [])

    def values(self, node: ast.AST | None) -> list[Binding]:
        """The bindings behind a bare name ``node`` (empty for anything else)."""
        if isinstance(node, ast.Name):
            return self.bindings(node.id)
        return []

    def value(self, node: ast.AST | None) -> Lit | None:
        """The literal ``node`` always evaluates to: a literal, or a name with one value."""
        lit = value_of(node)
        if lit is not None:
            return lit
        found = {lit for _, lit in self.values(node)}
        return found.pop() if len(found) == 1 else None


def assigned_in(stmts: list[ast.stmt], names: set[str]) -> Iterator[Binding]:
    """(assignment, literal) for literals assigned to one of ``names`` under ``stmts``."""
    for node in walk_body(stmts):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name, lit in _pairs(target, node.value):
                    if name in names and lit is not None:
                        yield node, lit


def returned_names(scope: Scope | None) -> set[str]:
    """Names a scope returns bare (``return result``)."""
    out: set[str] = set()
    if scope is None:
        return out
    for node in scope.nodes:
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Name):
            out.add(node.value.id)
    return out
