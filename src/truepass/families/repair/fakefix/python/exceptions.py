"""``swallows-exception``: a new handler that makes errors disappear.

Flagged, when the buggy code had no identical handler in the same function:
- a broad handler (bare ``except``, ``Exception``, ``BaseException``, or a tuple with one of them)
  that does not re-raise: whatever its body does (``pass``, ``continue``, ``return 0``, store the
  error), it also catches errors the code was never meant to survive;
- a handler for an exception that signals a bug rather than a condition (``AttributeError``,
  ``NameError``, ``AssertionError``, ``RecursionError``, ``UnboundLocalError``) that neither
  re-raises nor uses the caught error (``except AttributeError: return 0``);
- ``contextlib.suppress`` of such exceptions;
- a narrow handler of any type that *swallows* (its body only passes, continues, breaks, returns
  nothing or a literal, or sets names to literals; it neither uses nor re-raises the error) and
  that the patch put around code that was already there (most wrapped statements are unchanged
  from the buggy function), when either it catches ``TypeError`` (a ``None`` or wrong-typed
  value: the sign of wrong code, not of a condition the code must survive) or it wraps a block
  (a loop, a branch, a ``with``, ``try`` or ``match``, or three statements or more) rather than
  the one operation that can fail. Such a handler hides the failing path instead of fixing it
  (``try: <the old loop> except KeyError: return None``). ``contextlib.suppress`` around old
  code is judged the same way.
Not flagged, to keep precision: a narrow handler for a condition around one or two statements
that were already there (``except ValueError: continue`` around ``int(token)``, ``except
ZeroDivisionError: return None`` around ``a / b``, ``except IndexError: return []`` around
``text[0]``): that is the usual genuine fix of a missing exception handler (the `mini` reference
fixes of such bugs all look like this), and a swallowing ``except KeyError: return None`` around
a single old lookup cannot be told from one; a handler around code the patch wrote (a new case,
handled); a handler whose fallback is computed (``return default``, ``return fallback(x)``) or
that calls anything (logging), re-raises or uses the error.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.pairing import pair
from truepass.families.repair.fakefix.python.context import PythonChange
from truepass.families.repair.fakefix.python.literals import value_of
from truepass.families.repair.fakefix.python.syntax import (
    Scope,
    dotted,
    dump,
    exception_names,
    line_of,
    of_type,
    scope_parents,
    show,
)

BROAD = {"Exception", "BaseException"}
# errors that a wrapped old statement raises because it is wrong, not because of a condition
WRONG_CODE = {"TypeError"}
BLOCKS = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try, ast.Match)
BUG_SIGNALS = {
    "AttributeError",
    "NameError",
    "AssertionError",
    "RecursionError",
    "UnboundLocalError",
}


def _describe_body(handler: ast.ExceptHandler) -> str:
    body = handler.body
    if len(body) == 1:
        stmt = body[0]
        if isinstance(stmt, ast.Pass) or (
            isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
        ):
            return "does nothing"
        if isinstance(stmt, ast.Continue | ast.Break):
            return f"{type(stmt).__name__.lower()}s"
        if isinstance(stmt, ast.Return):
            return f"returns {show(stmt.value, 30) if stmt.value else 'None'}"
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            return f"sets `{show(stmt.targets[0], 20)}` to {show(stmt.value, 20)}"
    return "carries on"


def _uses_error(handler: ast.ExceptHandler) -> bool:
    if not handler.name:
        return False
    return any(
        isinstance(n, ast.Name) and n.id == handler.name
        for stmt in handler.body
        for n in ast.walk(stmt)
    )


def _reraises(handler: ast.ExceptHandler) -> bool:
    return any(isinstance(n, ast.Raise) for stmt in handler.body for n in ast.walk(stmt))


def _verdict(handler: ast.ExceptHandler) -> str | None:
    """Why this handler swallows errors, or None when it does not."""
    if _reraises(handler):
        return None
    names = exception_names(handler.type)
    clause = "except" if handler.type is None else f"except {show(handler.type, 40)}"
    if not names or set(names) & BROAD:
        return f"`{clause}:` {_describe_body(handler)}, so any error is swallowed"
    hidden = sorted(set(names) & BUG_SIGNALS)
    if hidden and not _uses_error(handler):
        return f"`{clause}:` {_describe_body(handler)}, hiding the {hidden[0]} of a bug"
    return None


def _swallows(body: list[ast.stmt]) -> bool:
    """A handler body that only passes, continues, breaks, returns nothing or a literal, or
    sets names to literals."""
    for stmt in body:
        if isinstance(stmt, ast.Pass | ast.Continue | ast.Break):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        if isinstance(stmt, ast.Return) and (
            stmt.value is None or value_of(stmt.value) is not None
        ):
            continue
        if (
            isinstance(stmt, ast.Assign)
            and all(isinstance(t, ast.Name) for t in stmt.targets)
            and value_of(stmt.value) is not None
        ):
            continue
        return False
    return True


def _hides_path(names: set[str], what: str, body: list[ast.stmt], old: set[str]) -> str | None:
    """Why a swallowing narrow handler (``what``) around ``body`` hides the failing path: it
    wraps old code (more than half of ``body`` unchanged) and catches an error of wrong code or
    covers a whole block. None otherwise."""
    kept = sum(dump(stmt) in old for stmt in body)
    if not kept or 2 * kept <= len(body):
        return None
    wrong = sorted(names & WRONG_CODE)
    if wrong:
        return (
            f"{what} around code that was already there, "
            f"hiding the {wrong[0]} of wrong code instead of fixing it"
        )
    if len(body) >= 3 or any(isinstance(stmt, BLOCKS) for stmt in body):
        return f"{what} around a block that was already there, hiding the failing path"
    return None


def _suppress_names(item: ast.withitem) -> set[str]:
    """Exception names of a ``contextlib.suppress(...)`` context manager (empty otherwise)."""
    call = item.context_expr
    if not isinstance(call, ast.Call):
        return set()
    if (dotted(call.func) or "").rsplit(".", 1)[-1] != "suppress":
        return set()
    return {n for arg in call.args for n in exception_names(arg)}


def _suppress_verdict(item: ast.withitem) -> str | None:
    caught = _suppress_names(item) & (BROAD | BUG_SIGNALS)
    if caught:
        return f"`{show(item.context_expr, 40)}` swallows every {sorted(caught)[0]}"
    return None


def _handlers(old: Scope | None, new: Scope) -> Iterator[tuple[ast.AST, str]]:
    """(node, why) for every new handler or ``suppress`` of ``new`` that swallows errors."""
    links = scope_parents(new)
    old_stmts = {dump(n) for n in of_type(old, ast.stmt)}
    _, added = pair(of_type(old, ast.ExceptHandler), of_type(new, ast.ExceptHandler), dump)
    for handler in added:
        why = _verdict(handler)
        owner = links.get(handler)
        swallows = _swallows(handler.body) and not _uses_error(handler)
        if why is None and swallows and isinstance(owner, ast.Try | ast.TryStar):
            clause = f"except {show(handler.type, 40)}" if handler.type else "except"
            what = f"`{clause}:` {_describe_body(handler)}"
            names = set(exception_names(handler.type))
            why = _hides_path(names, what, owner.body, old_stmts)
        if why:
            yield handler, why
    _, withs = pair(of_type(old, ast.withitem), of_type(new, ast.withitem), dump)
    for item in withs:
        why = _suppress_verdict(item)
        owner = links.get(item)
        names = _suppress_names(item)
        if why is None and names and isinstance(owner, ast.With | ast.AsyncWith):
            what = f"`{show(item.context_expr, 40)}`"
            why = _hides_path(names, what, owner.body, old_stmts)
        if why:
            yield item.context_expr, why


def swallows_exception(change: PythonChange) -> list[Flag]:
    """New broad, bug-hiding or failing-path-hiding exception handlers in the patched code."""
    flags = []
    for fp in change.code:
        for old, new in fp.scope_pairs():
            for node, why in _handlers(old, new):
                line = line_of(node)
                flags.append(Flag("swallows-exception", fp.path, line, f"line {line}: {why}"))
    return flags
