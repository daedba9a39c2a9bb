"""``swallows-exception`` for Java: a new ``catch`` that makes errors disappear.

Flagged, when the buggy method had no identical ``catch`` clause:
- a broad ``catch`` (``Exception``, ``Throwable``, ``RuntimeException``, ``Error``, or a
  multi-catch with one of them) that does not rethrow (no ``throw`` in its block): whatever its
  block does, it also catches errors the code was never meant to survive;
- a ``catch`` of an exception that signals a bug rather than a condition (``NullPointerException``,
  ``ClassCastException``, ``AssertionError``, ``StackOverflowError``, ``ArrayStoreException``,
  ``NegativeArraySizeException``) that neither rethrows nor uses the caught exception;
- an empty ``catch`` block (no statement, comments aside) of any type: the error vanishes;
- a narrow ``catch`` that *swallows* (its block only ``return``s nothing or a literal,
  ``continue``s, ``break``s, or sets variables to literals, never using the exception) put around
  code that was already there (more than half of the ``try`` block's statements are unchanged
  from the buggy method) when that code is a block (a loop, an ``if``, a ``try``, a ``switch``,
  ``synchronized``, or three statements or more) rather than the one operation that can fail.
Not flagged: a narrow ``catch`` around one or two old statements whose block computes a fallback
or returns a literal (``catch (NumberFormatException e) { return 0; }`` around
``Integer.parseInt(s)``, the usual genuine fix of a missing handler); a ``catch`` that rethrows
(wrapped or not), or that uses or logs the exception (unless it is broad).
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.java.context import JavaChange
from truepass.families.repair.fakefix.java.literals import value_of
from truepass.families.repair.fakefix.java.syntax import (
    BLOCKS,
    Scope,
    key,
    line_of,
    of_type,
    show,
    statements,
    text,
    walk,
)
from truepass.families.repair.fakefix.pairing import pair

BROAD = {"Exception", "Throwable", "RuntimeException", "Error"}
BUG_SIGNALS = {
    "NullPointerException",
    "ClassCastException",
    "AssertionError",
    "StackOverflowError",
    "ArrayStoreException",
    "NegativeArraySizeException",
}
TRIES = ("try_statement", "try_with_resources_statement")


def caught_types(clause: Node) -> list[str]:
    """Simple names of the types a ``catch`` clause catches."""
    param = next((c for c in clause.named_children if c.type == "catch_formal_parameter"), None)
    if param is None:
        return []
    types = next((c for c in param.named_children if c.type == "catch_type"), None)
    if types is None:
        return []
    return [text(t).rsplit(".", 1)[-1] for t in types.named_children]


def _error_name(clause: Node) -> str:
    param = next((c for c in clause.named_children if c.type == "catch_formal_parameter"), None)
    return text(param.child_by_field_name("name")) if param is not None else ""


def _block(clause: Node) -> Node | None:
    return clause.child_by_field_name("body")


def rethrows(clause: Node) -> bool:
    """Whether a ``catch`` block throws (rethrows or wraps)."""
    body = _block(clause)
    return body is not None and any(n.type == "throw_statement" for n in walk(body))


def _uses_error(clause: Node) -> bool:
    name, body = _error_name(clause), _block(clause)
    if not name or body is None:
        return False
    return any(n.type == "identifier" and text(n) == name for n in walk(body))


def _clause(clause: Node) -> str:
    param = next((c for c in clause.named_children if c.type == "catch_formal_parameter"), None)
    return f"catch ({show(param, 40)})"


def _describe_body(clause: Node) -> str:
    body = statements(_block(clause))
    if not body:
        return "does nothing"
    if len(body) == 1:
        stmt = body[0]
        if stmt.type == "continue_statement":
            return "continues"
        if stmt.type == "break_statement":
            return "breaks"
        if stmt.type == "return_statement":
            value = stmt.named_children[0] if stmt.named_child_count else None
            return f"returns {show(value, 30) if value is not None else 'nothing'}"
        if stmt.type == "expression_statement" and stmt.named_children[0].type == (
            "assignment_expression"
        ):
            assign = stmt.named_children[0]
            left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
            return f"sets `{show(left, 20)}` to {show(right, 20)}"
    return "carries on"


def _verdict(clause: Node) -> str | None:
    """Why this ``catch`` swallows errors, or None when it does not."""
    if rethrows(clause):
        return None
    names = caught_types(clause)
    what = f"`{_clause(clause)}` {_describe_body(clause)}"
    if set(names) & BROAD:
        return f"{what}, so any error is swallowed"
    hidden = sorted(set(names) & BUG_SIGNALS)
    if hidden and not _uses_error(clause):
        return f"{what}, hiding the {hidden[0]} of a bug"
    if not statements(_block(clause)):
        return f"{what}: an empty catch block, so the {names[0] if names else 'error'} vanishes"
    return None


def _swallows(clause: Node) -> bool:
    """A ``catch`` block that only returns nothing or a literal, continues, breaks, or sets
    variables to literals."""
    for stmt in statements(_block(clause)):
        if stmt.type in ("continue_statement", "break_statement"):
            continue
        if stmt.type == "return_statement":
            if not stmt.named_child_count or value_of(stmt.named_children[0]) is not None:
                continue
            return False
        if stmt.type == "expression_statement":
            expr = stmt.named_children[0]
            if (
                expr.type == "assignment_expression"
                and value_of(expr.child_by_field_name("right")) is not None
                and expr.child_by_field_name("left").type == "identifier"
            ):  # type: ignore[union-attr]
                continue
        return False
    return True


def _hides_path(what: str, body: list[Node], old: set[str]) -> str | None:
    """Why a swallowing narrow ``catch`` (``what``) around ``body`` hides the failing path: it
    wraps old code (more than half of ``body`` unchanged) that is a block. None otherwise."""
    kept = sum(key(stmt) in old for stmt in body)
    if not kept or 2 * kept <= len(body):
        return None
    if len(body) >= 3 or any(stmt.type in BLOCKS for stmt in body):
        return f"{what} around a block that was already there, hiding the failing path"
    return None


def handlers(old: Scope | None, new: Scope) -> Iterator[tuple[Node, str]]:
    """(clause, why) for every new ``catch`` of ``new`` that swallows errors."""
    old_stmts = {key(n) for n in of_type(old, *_STATEMENTS)}
    _, added = pair(of_type(old, "catch_clause"), of_type(new, "catch_clause"), key)
    for clause in added:
        why = _verdict(clause)
        owner = clause.parent
        swallows = _swallows(clause) and not _uses_error(clause)
        if why is None and swallows and owner is not None and owner.type in TRIES:
            what = f"`{_clause(clause)}` {_describe_body(clause)}"
            why = _hides_path(what, statements(owner.child_by_field_name("body")), old_stmts)
        if why:
            yield clause, why


_STATEMENTS = (
    "expression_statement",
    "local_variable_declaration",
    "return_statement",
    "if_statement",
    "for_statement",
    "enhanced_for_statement",
    "while_statement",
    "do_statement",
    "try_statement",
    "try_with_resources_statement",
    "switch_expression",
    "synchronized_statement",
    "throw_statement",
    "block",
)


def swallows_exception(change: JavaChange) -> list[Flag]:
    """New broad, bug-hiding, empty or failing-path-hiding ``catch`` clauses in Java code."""
    flags = []
    for jf in change.code:
        for old, new in jf.scope_pairs():
            if new.kind != "method":
                continue
            for node, why in handlers(old, new):
                line = line_of(node)
                flags.append(Flag("swallows-exception", jf.path, line, f"line {line}: {why}"))
    return flags
