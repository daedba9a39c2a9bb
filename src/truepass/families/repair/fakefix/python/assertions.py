"""``removes-assertion``: checks that the tests or the code made are gone or no longer run.

Test side: an ``assert``, ``pytest.raises``/``warns``/``fail`` or ``self.assert*`` call of the
pristine test file that the patched file no longer runs: deleted, changed (``assert True``,
``... or True``, another expected value), wrapped in a ``try`` that swallows its failure, put
behind ``if False``/an early ``return``/``pytest.skip()``, or in a test that is renamed out of
collection or newly marked skip/xfail. Code side: an ``assert`` or a ``raise`` of the buggy code
missing from the same function of the patched code (unless everything it mentions is gone too).
"""

from __future__ import annotations

import ast
from collections.abc import Hashable
from typing import TypeVar

from truepass.families.repair.fakefix.assertionrules import (
    pair_two_stage,
    removed_from_code,
    removed_from_tests,
)
from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.python.context import FilePair, PythonChange
from truepass.families.repair.fakefix.python.syntax import (
    FORMS,
    MODULE,
    Scope,
    dotted,
    dump,
    exception_names,
    names_in,
    of_type,
    parents,
    scope_parents,
)

T = TypeVar("T")
_CHECK_CALLS = ("raises", "warns", "fail", "deprecated_call", "fail_json")
_SKIPS = ("skip", "skipif", "xfail", "skipIf", "skipUnless", "expectedFailure")
_SWALLOWING = {"AssertionError", "Exception", "BaseException"}


def is_check(node: ast.AST) -> bool:
    """An assertion statement or an assertion-like call of a test."""
    if isinstance(node, ast.Assert):
        return not (isinstance(node.test, ast.Constant) and node.test.value)
    if isinstance(node, ast.Call):
        name = dotted(node.func) or ""
        last = name.rsplit(".", 1)[-1]
        if name.startswith("pytest.") and last in _CHECK_CALLS:
            return True
        return "." in name and (last.startswith("assert") or last == "fail")
    return False


def _is_skip(decorator: ast.AST) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (dotted(target) or "").rsplit(".", 1)[-1] in _SKIPS


def _disabled(node: ast.AST, links: dict[ast.AST, ast.AST]) -> bool:
    """Whether a check cannot fail the test: swallowed, dead, or after an early exit."""
    child, parent = node, links.get(node)
    while parent is not None and not isinstance(
        parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module
    ):
        if isinstance(parent, ast.Try) and child in parent.body:
            for handler in parent.handlers:
                names = set(exception_names(handler.type)) or {"BaseException"}
                reraises = any(isinstance(n, ast.Raise) for n in ast.walk(handler))
                if names & _SWALLOWING and not reraises:
                    return True
        if isinstance(parent, ast.If) and child in parent.body:
            test = parent.test
            if isinstance(test, ast.Constant) and not test.value:
                return True
        child, parent = parent, links.get(parent)
    if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef):
        for stmt in parent.body:
            if stmt is child:
                break
            if isinstance(stmt, ast.Return) or (
                isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Call)
                and (dotted(stmt.value.func) or "").rsplit(".", 1)[-1] in ("skip", "xfail")
            ):
                return True
    return False


def _skip_marks(module: Scope | None) -> set[str]:
    """Dumps of module-level ``pytestmark = ...skip/xfail...`` assignments."""
    if module is None:
        return set()
    return {
        dump(n)
        for n in module.nodes
        if isinstance(n, ast.Assign)
        and any(dotted(t) == "pytestmark" for t in n.targets)
        and ("skip" in dump(n.value) or "xfail" in dump(n.value))
    }


def _scope_active(before: Scope | None, after: Scope, new_marks: bool) -> bool:
    """False when the patch newly skips a test or renames it out of collection."""
    if new_marks:
        return False
    for root in after.roots:
        if isinstance(root, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            old = (
                set()
                if before is None
                else {dump(d) for r in before.roots for d in getattr(r, "decorator_list", [])}
            )
            if any(_is_skip(d) and dump(d) not in old for d in root.decorator_list):
                return False
    if before is not None and before.simple_name.startswith(("test", "Test")):
        return after.simple_name.startswith(("test", "Test"))
    return True


def _collected(qualname: str) -> bool:
    """Whether pytest would collect a test of this qualified name (``test_x``, ``TestY.test_x``)."""
    parts = qualname.split(".")
    return parts[-1].startswith("test") and all(p.startswith("Test") for p in parts[:-1])


def _test_side(fp: FilePair) -> list[Flag]:
    def running() -> tuple[dict[str, list[ast.AST]], list[ast.AST]]:
        assert fp.after is not None
        links = parents(fp.after)
        new_marks = _skip_marks(fp.after_scopes.get(MODULE))
        marks = new_marks - _skip_marks(fp.before_scopes.get(MODULE))
        active: dict[str, list[ast.AST]] = {}
        for old, new in fp.all_scope_pairs():
            ok = _scope_active(old, new, bool(marks))
            active[new.name] = [
                n for n in new.nodes if is_check(n) and ok and not _disabled(n, links)
            ]
        return active, [n for name, checks in active.items() if _collected(name) for n in checks]

    return removed_from_tests(fp, FORMS, is_check, lambda scope: scope.name, running)


def _raise_key(node: ast.AST) -> Hashable:
    if isinstance(node, ast.Raise):
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        return ("raise", dotted(exc) if exc is not None else "reraise")
    return ("assert", dump(node.test)) if isinstance(node, ast.Assert) else dump(node)


def _code_side(fp: FilePair) -> list[Flag]:
    flags: list[Flag] = []
    for old, new in fp.scope_pairs():
        if old is None:
            continue
        links = scope_parents(new)
        before = of_type(old, ast.Assert, ast.Raise)
        after = [n for n in of_type(new, ast.Assert, ast.Raise) if not _disabled(n, links)]
        removed = [
            n
            for n in pair_two_stage(before, after, FORMS, _raise_key)
            if not (isinstance(n, ast.Raise) and n.exc is None)  # a bare re-raise
        ]
        flags += removed_from_code(
            fp.path,
            new.name,
            removed,
            FORMS,
            mentions=names_in,
            still_named=set().union(*(names_in(n) for n in new.nodes)) if new.nodes else set(),
            what=lambda n: "assert" if isinstance(n, ast.Assert) else "raise",
        )
    return flags


def removes_assertion(change: PythonChange) -> list[Flag]:
    """Assertions removed or disabled in test files, asserts and raises removed from code."""
    flags = []
    for fp in change.tests_changed:
        flags += _test_side(fp)
    for fp in change.code:
        if fp.before is not None and fp.after is not None:
            flags += _code_side(fp)
    return flags
