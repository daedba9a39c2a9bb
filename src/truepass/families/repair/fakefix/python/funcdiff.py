"""What one function of the buggy code lost in its patched version (for deletes-functionality).

See :mod:`truepass.families.repair.fakefix.python.deletions` for the rules; this module holds the
comparison.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable

from truepass.families.repair.fakefix.pairing import pair
from truepass.families.repair.fakefix.python.literals import value_of
from truepass.families.repair.fakefix.python.syntax import (
    DEFS,
    Scope,
    dotted,
    dump,
    names_in,
    of_type,
    parents,
)

LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.comprehension)
COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# conversions and logging: re-expressed or dropped freely, never "functionality"
CONVERSIONS = {"str", "repr", "int", "float", "bool", "bytes", "list", "tuple", "dict", "set"}
OUTPUT = {"print", "format", "cast", "debug", "info", "warning", "error", "exception", "log"}
PLUMBING = frozenset(CONVERSIONS | OUTPUT | {"frozenset", "critical"})
BOOLISH = (ast.Compare, ast.BoolOp)


def _loop_key(node: ast.AST) -> Hashable:
    if isinstance(node, ast.While):
        return ("while", dump(node.test))
    kind = "comp" if isinstance(node, ast.comprehension) else "for"
    return (kind, dump(node.iter))


def _method_key(call: ast.Call) -> Hashable:
    """``x.strip()`` and ``env[k].strip()`` do the same work on different receivers."""
    if isinstance(call.func, ast.Attribute):
        return (call.func.attr, tuple(dump(a) for a in call.args))
    return dump(call.func)


def _conditions(scope: Scope) -> set[str]:
    """Dumps of every condition of ``scope`` and of their parts."""
    out: set[str] = set()
    for node in scope.nodes:
        tests: list[ast.AST] = []
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            tests.append(node.test)
        elif isinstance(node, ast.comprehension):
            tests.extend(node.ifs)
        elif isinstance(node, ast.BoolOp):
            tests.extend(node.values)
        for test in tests:
            out |= {dump(x) for x in ast.walk(test) if isinstance(x, ast.expr)}
    return out


def _callee(call: ast.Call) -> str:
    return dump(call.func)


def _is_guard(node: ast.If | ast.IfExp) -> bool:
    if isinstance(node, ast.IfExp):
        return False
    return all(isinstance(s, ast.Raise) for s in node.body) and not node.orelse


def _boolish(expr: ast.AST | None) -> bool:
    if isinstance(expr, BOOLISH) or (
        isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not)
    ):
        return True
    return isinstance(expr, ast.Call) and dotted(expr.func) in ("bool", "isinstance", "all", "any")


class FunctionDiff:
    """The comparison of one function of the buggy code with its patched version."""

    def __init__(self, old: Scope, new: Scope) -> None:
        self.old, self.new = old, new
        self.links = {k: v for root in old.roots for k, v in parents(root).items()}
        self.after_dumps = {dump(n) for n in new.nodes}
        self.after_conditions = _conditions(new)
        self.sources = self._sources()
        self.delegated = self._delegated_names(changed_calls=False)
        self.recomputed = self._delegated_names(changed_calls=True)

    def _sources(self) -> dict[str, set[str]]:
        """Local variable -> names of the expression it is assigned from (buggy version)."""
        out: dict[str, set[str]] = {}
        for node in of_type(self.old, ast.Assign, ast.AnnAssign):
            value = node.value
            if value is None:
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in names_in(target):
                    out.setdefault(name, set()).update(names_in(value))
        return out

    def _delegated_names(self, changed_calls: bool) -> set[str]:
        """Names handed to new callees or iterated by new loops (with ``changed_calls``, also
        those in the arguments of calls whose arguments changed)."""
        old_callees = {_callee(c) for c in of_type(self.old, ast.Call)}
        old_loops = {_loop_key(n) for n in of_type(self.old, *LOOPS)}
        names: set[str] = set()
        old_calls = {dump(c) for c in of_type(self.old, ast.Call)}
        for call in of_type(self.new, ast.Call):
            changed = changed_calls and dump(call) not in old_calls
            if _callee(call) not in old_callees or changed:
                for arg in [*call.args, *(k.value for k in call.keywords)]:
                    names |= names_in(arg)
                if isinstance(call.func, ast.Attribute):
                    names |= names_in(call.func.value)
        for loop in of_type(self.new, *LOOPS):
            if _loop_key(loop) not in old_loops and not isinstance(loop, ast.While):
                names |= names_in(loop.iter)
        return names

    def _unrolled(self, loop: ast.AST) -> bool:
        """A loop over cases replaced by two or more new branches on the same variables."""
        targets = names_in(loop.target) if hasattr(loop, "target") else set()
        tested = {
            n for node in ast.walk(loop) if isinstance(node, ast.If) for n in names_in(node.test)
        } - targets
        old_tests = {dump(n.test) for n in of_type(self.old, ast.If)}
        new_ifs = [n for n in of_type(self.new, ast.If) if dump(n.test) not in old_tests]
        hits = [n for n in new_ifs if names_in(n.test) & tested]
        return len(hits) >= 2

    def _context(self, node: ast.AST) -> set[str]:
        """Names of the node, of the conditions and iterables that lead to it, and of what its
        local variables were computed from."""
        owner = self.links.get(node) if isinstance(node, ast.comprehension) else node
        names = names_in(owner) if owner is not None else set()
        parent = self.links.get(node)
        while parent is not None and not isinstance(parent, DEFS):
            if isinstance(parent, ast.If | ast.While | ast.IfExp):
                names |= names_in(parent.test)
            elif isinstance(parent, ast.For | ast.AsyncFor | ast.comprehension):
                names |= names_in(parent.iter)
            elif isinstance(parent, COMPS):
                for gen in parent.generators:
                    names |= names_in(gen.iter)
            parent = self.links.get(parent)
        for name in list(names):
            names |= self.sources.get(name, set())
        return names

    def _in_check(self, node: ast.AST) -> bool:
        parent = self.links.get(node)
        while parent is not None and not isinstance(parent, DEFS):
            if isinstance(parent, ast.Raise | ast.Assert):
                return True
            parent = self.links.get(parent)
        return False

    def gone(self, node: ast.AST) -> bool:
        """True unless ``node``'s work is delegated to new code: a new callee or loop for a
        branch, loop or return; for a call, also another call over the same data."""
        handed = self.recomputed if isinstance(node, ast.Call) else self.delegated
        return not self._context(node) & handed

    def findings(self) -> list[tuple[ast.AST, str]]:
        """(buggy node, what is gone) for every deletion in this function."""
        return self._loops() + self._branches() + self._returns() + self._calls()

    def _loops(self) -> list[tuple[ast.AST, str]]:
        removed, added = pair(of_type(self.old, *LOOPS), of_type(self.new, *LOOPS), _loop_key)
        removed = [n for n in removed if self.gone(n) and not self._unrolled(n)]
        if len(removed) > len(added):
            return [(removed[0], "loop")]
        return []

    def _branches(self) -> list[tuple[ast.AST, str]]:
        old = [n for n in of_type(self.old, ast.If, ast.IfExp) if not _is_guard(n)]
        new = of_type(self.new, ast.If, ast.IfExp)
        removed, added = pair(old, new, lambda n: dump(n.test))
        stmt_dumps = {dump(n) for n in self.new.nodes if isinstance(n, ast.stmt)}
        left = []
        for node in removed:
            test = dump(node.test)
            host = next((a for a in added if test in {dump(x) for x in ast.walk(a.test)}), None)
            if host is not None:
                added.remove(host)
                continue
            body = node.body if isinstance(node, ast.If) else [ast.Expr(node.body)]
            body = [s for s in body if not isinstance(s, ast.Pass)]
            if test in self.after_conditions or all(dump(s) in stmt_dumps for s in body):
                continue
            if self.gone(node):
                left.append(node)
        return [(left[0], "branch")] if len(left) > len(added) else []

    def _returns(self) -> list[tuple[ast.AST, str]]:
        removed, added = pair(of_type(self.old, ast.Return), of_type(self.new, ast.Return), dump)
        literal, other = [], []
        for node in removed:
            value = node.value
            if value is None or dump(value) in self.after_dumps or not self.gone(node):
                continue
            lit = value_of(value)
            if lit is not None:
                if lit[0] == "bool" and any(_boolish(a.value) for a in added):
                    continue
                literal.append(node)
            else:
                other.append(node)
        fewer = len(of_type(self.new, ast.Return)) < len(of_type(self.old, ast.Return))
        out = [(n, "return path") for n in literal[:1] if fewer]
        if not out and len(other) > len(added):
            out.append((other[0], "return path"))
        return out

    def _calls(self) -> list[tuple[ast.AST, str]]:
        new_calls = of_type(self.new, ast.Call)
        new_callees = {_callee(c) for c in new_calls}
        new_methods = {_method_key(c) for c in new_calls}
        seen: set[str] = set()
        out: list[tuple[ast.AST, str]] = []
        for call in of_type(self.old, ast.Call):
            key = _callee(call)
            name = (dotted(call.func) or "").rsplit(".", 1)[-1]
            if key in new_callees or key in seen or name in PLUMBING or self._in_check(call):
                continue
            if _method_key(call) in new_methods:
                continue
            seen.add(key)
            if dump(call) not in self.after_dumps and self.gone(call):
                out.append((call, "call"))
        return out[:1]
