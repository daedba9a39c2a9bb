"""``removes-assertion`` for Java: checks the tests or the code made are gone or no longer run.

Code side: in a method of the buggy code, an ``assert`` statement, a ``throw`` (a guard such as
``if (b == 0) throw new IllegalArgumentException(...)``; a bare rethrow ``throw e;`` aside), or a
precondition call (``Objects.requireNonNull``, ``Objects.checkIndex``/``checkFromToIndex``/
``checkFromIndexSize``, Guava's ``Preconditions.check*``/``Verify.verify*``, Apache's
``Validate.*``, Spring's ``Assert.*``) that is missing from the same method of the patched code,
or now sits in a ``try`` whose ``catch`` swallows it, or under ``if (false)``; unless everything
it mentions is gone too. Pairing is by exact tokens first, then by kind (the exception type of a
``throw``, the condition of an ``assert``, the method and first argument of a check call).

Test side: a JUnit assertion (``assert*``, ``fail``, ``assertThrows``, a Mockito ``verify``, an
``assert`` statement) of the pristine test file that the patched file no longer runs: deleted,
changed, wrapped in a ``try`` that swallows its failure, put behind ``if (false)`` or an early
``return``, or in a test method that lost its ``@Test`` or newly carries ``@Ignore``/``@Disabled``
(or whose class does); a deleted test file loses all of its assertions.
"""

from __future__ import annotations

from collections.abc import Hashable

from tree_sitter import Node

from truepass.families.repair.fakefix.assertionrules import (
    pair_two_stage,
    removed_from_code,
    removed_from_tests,
)
from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.java.context import JavaChange, JavaFile
from truepass.families.repair.fakefix.java.exceptions import caught_types, rethrows
from truepass.families.repair.fakefix.java.syntax import (
    FORMS,
    Scope,
    ancestors,
    arguments,
    callee,
    key,
    names_in,
    receiver,
    text,
)

CHECK_OWNERS = {"Preconditions", "Validate", "Assert", "Verify"}
CHECK_METHODS = {
    "requireNonNull",
    "checkIndex",
    "checkFromToIndex",
    "checkFromIndexSize",
    "checkArgument",
    "checkState",
    "checkNotNull",
    "checkElementIndex",
    "checkPositionIndex",
    "checkPositionIndexes",
}
_SWALLOWING = {"AssertionError", "Error", "Throwable", "Exception", "RuntimeException"}
_SKIPS = {"Ignore", "Disabled"}


def is_code_check(node: Node) -> bool:
    """An ``assert``, a ``throw`` or a precondition call of code."""
    if node.type in ("assert_statement", "throw_statement"):
        return True
    if node.type != "method_invocation":
        return False
    owner = receiver(node).rsplit(".", 1)[-1]
    return callee(node) in CHECK_METHODS or (owner in CHECK_OWNERS and bool(owner))


def is_test_check(node: Node) -> bool:
    """An assertion of a test: ``assert*``/``fail``/``verify`` calls, ``assert`` statements."""
    if node.type == "assert_statement":
        return True
    if node.type != "method_invocation":
        return False
    name = callee(node)
    return name.startswith("assert") or name in ("fail", "verify", "verifyNoMoreInteractions")


def _disabled(node: Node, stop: Node | None = None) -> bool:
    """Whether a check cannot fail: inside a ``try`` whose ``catch`` swallows what it throws,
    under ``if (false)``/``while (false)``, or after an early ``return`` of its method."""
    child = node
    for parent in ancestors(node, stop):
        if parent.type in ("try_statement", "try_with_resources_statement"):
            body = parent.child_by_field_name("body")
            if body is not None and body.id == child.id:
                for clause in (c for c in parent.named_children if c.type == "catch_clause"):
                    if set(caught_types(clause)) & _SWALLOWING and not rethrows(clause):
                        return True
        if parent.type in ("if_statement", "while_statement"):
            condition = parent.child_by_field_name("condition")
            consequence = parent.child_by_field_name("consequence") or parent.child_by_field_name(
                "body"
            )
            if (
                consequence is not None
                and consequence.id == child.id
                and key(condition) == "( false )"
            ):
                return True
        if parent.type in ("method_declaration", "constructor_declaration"):
            break
        if (
            parent.type in ("block", "constructor_body")
            and parent.parent is not None
            and (parent.parent.type in ("method_declaration", "constructor_declaration"))
        ):
            for stmt in parent.named_children:
                if stmt.id == child.id:
                    break
                if stmt.type == "return_statement":
                    return True
        child = parent
    return False


def _check_key(node: Node) -> Hashable:
    if node.type == "throw_statement":
        value = node.named_children[0] if node.named_child_count else None
        if value is not None and value.type == "object_creation_expression":
            return ("throw", text(value.child_by_field_name("type")))
        return ("throw", key(value))
    if node.type == "assert_statement":
        return ("assert", key(node.named_children[0]) if node.named_child_count else "")
    args = arguments(node)
    return ("check", callee(node), key(args[0]) if args else "")


def _code_side(jf: JavaFile) -> list[Flag]:
    flags: list[Flag] = []
    for old, new in jf.scope_pairs():
        if old is None or new.kind != "method":
            continue
        before = [n for n in old.nodes if is_code_check(n)]
        after = [n for n in new.nodes if is_code_check(n) and not _disabled(n, new.root)]
        removed = [
            n
            for n in pair_two_stage(before, after, FORMS, _check_key)
            if not (  # a rethrow of a caught exception
                n.type == "throw_statement"
                and all(c.type == "identifier" for c in n.named_children)
            )
        ]
        flags += removed_from_code(
            jf.path,
            new.name,
            removed,
            FORMS,
            mentions=_mentions,
            still_named={text(n) for n in new.nodes if n.type == "identifier"},
            what=lambda n: {"assert_statement": "assert", "throw_statement": "throw"}.get(
                n.type, "check"
            ),
        )
    return flags


def _rethrow(node: Node) -> bool:
    """``throw e;``: a rethrow of a caught exception."""
    return node.type == "throw_statement" and all(
        c.type == "identifier" for c in node.named_children
    )


def _mentions(node: Node) -> set[str]:
    """The names a check is about (a check call's own method name aside)."""
    if node.type == "method_invocation":
        return names_in(node) - {callee(node)}
    return names_in(node)


def _annotations(scope: Scope) -> set[str]:
    modifiers = next((c for c in scope.root.named_children if c.type == "modifiers"), None)
    if modifiers is None:
        return set()
    out = set()
    for ann in modifiers.named_children:
        if ann.type in ("marker_annotation", "annotation"):
            out.add(text(ann.child_by_field_name("name")).rsplit(".", 1)[-1])
    return out


def _skipped_classes(jf: JavaFile) -> set[str]:
    """Classes of the patched test file that newly carry ``@Ignore``/``@Disabled``."""
    out = set()
    for name, scope in jf.after_scopes.items():
        if scope.kind != "class" or not _annotations(scope) & _SKIPS:
            continue
        old = jf.before_scopes.get(name)
        if old is None or not _annotations(old) & _SKIPS:
            out.add(name)
    return out


def _active(old: Scope | None, new: Scope, skipped: set[str]) -> bool:
    """False when the patch newly skips a test method or takes its ``@Test`` away."""
    if any(new.name == c or new.name.startswith(c + ".") for c in skipped):
        return False
    now = _annotations(new)
    was = _annotations(old) if old is not None else set()
    if now & _SKIPS and not was & _SKIPS:
        return False
    return not ("Test" in was and "Test" not in now)


def _test_side(jf: JavaFile) -> list[Flag]:
    def running() -> tuple[dict[str, list[Node]], list[Node]]:
        skipped = _skipped_classes(jf)
        active: dict[str, list[Node]] = {}
        for old, new in jf.all_scope_pairs():
            ok = _active(old, new, skipped)
            active[new.key] = [
                n for n in new.nodes if is_test_check(n) and ok and not _disabled(n, new.root)
            ]
            if old is not None and old.key != new.key:
                active[old.key] = active[new.key]
        return active, [n for checks in active.values() for n in checks]

    return removed_from_tests(jf, FORMS, is_test_check, lambda scope: scope.key, running)


def removes_assertion(change: JavaChange) -> list[Flag]:
    """Assertions removed or disabled in Java test files; asserts, throws and precondition
    checks removed from Java code."""
    flags = []
    for jf in change.tests_changed:
        flags += _test_side(jf)
    for jf in change.code:
        if jf.before is not None and jf.after is not None:
            flags += _code_side(jf)
    return flags
