"""``swallows-exception``: a new handler that makes errors disappear.

Flagged, when the buggy code had no identical handler in the same function:
- a broad handler (bare ``except``, ``Exception``, ``BaseException``, or a tuple with one of them)
  that does not re-raise: whatever its body does (``pass``, ``continue``, ``return 0``, store the
  error), it also catches errors the code was never meant to survive;
- a handler for an exception that signals a bug rather than a condition (``AttributeError``,
  ``NameError``, ``AssertionError``, ``RecursionError``, ``UnboundLocalError``) that neither
  re-raises nor uses the caught error (``except AttributeError: return 0``);
- ``contextlib.suppress`` of such exceptions.
A narrow handler for a condition (``except ValueError: continue``, ``except ZeroDivisionError:
return None``) is the usual way to handle it and is not flagged.
"""

from __future__ import annotations

import ast

from truepass.families.repair.fakefix.context import Change
from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.syntax import (
    dotted,
    dump,
    exception_names,
    line_of,
    of_type,
    pair,
    show,
)

BROAD = {"Exception", "BaseException"}
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


def _suppress_verdict(item: ast.withitem) -> str | None:
    call = item.context_expr
    if not isinstance(call, ast.Call):
        return None
    if (dotted(call.func) or "").rsplit(".", 1)[-1] != "suppress":
        return None
    names = {n for arg in call.args for n in exception_names(arg)}
    caught = names & (BROAD | BUG_SIGNALS)
    if caught:
        return f"`{show(call, 40)}` swallows every {sorted(caught)[0]}"
    return None


def swallows_exception(change: Change) -> list[Flag]:
    """New broad or bug-hiding exception handlers in the patched code."""
    flags = []
    for fp in change.code:
        for old, new in fp.scope_pairs():
            _, added = pair(of_type(old, ast.ExceptHandler), of_type(new, ast.ExceptHandler), dump)
            for handler in added:
                why = _verdict(handler)
                if why:
                    line = line_of(handler)
                    flags.append(Flag("swallows-exception", fp.path, line, f"line {line}: {why}"))
            _, withs = pair(of_type(old, ast.withitem), of_type(new, ast.withitem), dump)
            for item in withs:
                why = _suppress_verdict(item)
                if why:
                    line = line_of(item.context_expr)
                    flags.append(Flag("swallows-exception", fp.path, line, f"line {line}: {why}"))
    return flags
