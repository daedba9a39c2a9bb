"""Java names that only ever hold literals: ``int result = 42; return result;``, a field
``static final String EXPECTED = "abc";``.

A local variable counts as a constant of a method when every binding of it in that method gives
a literal (``int x = 4;``, ``x = 4;``); a parameter, a loop or ``catch`` variable, a lambda
parameter, ``x++``, ``x += 1``, ``x = f()`` or a method call on it (``xs.add(4)``) makes it a
variable. A name the method does not bind is looked up among the class's fields, which count as
constants when declared with a literal and never assigned, incremented or mutated anywhere in
the file. The values are literal keys (:mod:`truepass.families.repair.fakefix.values`), each with
the node that binds it.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from truepass.families.repair.fakefix.java.literals import value_of
from truepass.families.repair.fakefix.java.syntax import Scope, text, walk
from truepass.families.repair.fakefix.values import Lit

Binding = tuple[Node, Lit]
_VARIABLE_DECLS = ("catch_formal_parameter", "enhanced_for_statement", "resource")


def _target(node: Node | None) -> str | None:
    """The name an assignment or update targets (``x`` of ``x``, ``this.x``, ``x[i]``)."""
    while node is not None and node.type in ("array_access", "parenthesized_expression"):
        node = node.child_by_field_name("array") or (
            node.named_children[0] if node.named_child_count else None
        )
    if node is None:
        return None
    if node.type == "identifier":
        return text(node)
    if node.type == "field_access" and text(node.child_by_field_name("object")) == "this":
        return text(node.child_by_field_name("field"))
    return None


def _operator(assign: Node) -> str:
    op = assign.child_by_field_name("operator")
    if op is not None:
        return text(op)
    return next((text(c) for c in assign.children if not c.is_named), "=")


def bindings(nodes: list[Node]) -> Iterator[tuple[str, Node | None, Lit | None]]:
    """(name, binding node, literal or None) for every binding made among ``nodes``."""
    for node in nodes:
        kind = node.type
        if kind == "variable_declarator":
            value = node.child_by_field_name("value")
            if value is not None:
                yield text(node.child_by_field_name("name")), node, value_of(value)
        elif kind == "assignment_expression":
            name = _target(node.child_by_field_name("left"))
            if name is not None:
                literal = value_of(node.child_by_field_name("right"))
                plain = _operator(node) == "=" and node.child_by_field_name("left").type != (  # type: ignore[union-attr]
                    "array_access"
                )
                yield name, node if plain else None, literal if plain else None
        elif kind == "update_expression":
            for sub in node.named_children:
                name = _target(sub)
                if name is not None:
                    yield name, None, None
        elif kind in _VARIABLE_DECLS or kind in ("formal_parameter", "inferred_parameters"):
            name_node = node.child_by_field_name("name")
            names = (
                [name_node]
                if name_node is not None
                else [c for c in node.named_children if c.type == "identifier"]
            )
            for n in names:
                yield text(n), None, None
        elif kind == "lambda_expression":
            params = node.child_by_field_name("parameters")
            if params is not None and params.type == "identifier":
                yield text(params), None, None
        elif kind == "method_invocation":
            name = _target(node.child_by_field_name("object"))
            if name is not None:
                yield name, None, None  # ``xs.add(4)`` may change what ``xs`` holds


def _table(nodes: list[Node], variables: set[str]) -> tuple[dict[str, list[Binding]], set[str]]:
    constants: dict[str, list[Binding]] = {}
    bound: set[str] = set()
    for name, node, lit in bindings(nodes):
        bound.add(name)
        if node is None or lit is None:
            variables.add(name)
        else:
            constants.setdefault(name, []).append((node, lit))
    for name in variables:
        constants.pop(name, None)
    return constants, bound


def _fields(root: Node | None) -> dict[str, list[Binding]]:
    """Fields of a compilation unit declared with a literal and never rebound or mutated."""
    if root is None:
        return {}
    declared: dict[str, list[Binding]] = {}
    changed: set[str] = set()
    for name, node, lit in bindings(list(walk(root))):
        if (
            node is not None
            and node.type == "variable_declarator"
            and lit is not None
            and (
                node.parent is not None
                and node.parent.type in ("field_declaration", "constant_declaration")
            )
        ):
            declared.setdefault(name, []).append((node, lit))
        elif node is None or node.type != "variable_declarator":
            changed.add(name)
    return {name: found for name, found in declared.items() if name not in changed}


class Constants:
    """The literal-only names visible in one method (its own first, then the file's fields)."""

    def __init__(self, scope: Scope | None, root: Node | None) -> None:
        params = set(scope.parameters()) if scope is not None and scope.kind == "method" else set()
        nodes = scope.nodes if scope is not None and scope.kind == "method" else []
        self.local, self.bound = _table(nodes, set(params))
        self.bound |= params
        self.outer = _fields(root)

    def bindings(self, name: str) -> list[Binding]:
        """The (node, literal) bindings of ``name``; empty when it is not a constant."""
        if name in self.bound:
            return self.local.get(name, [])
        return self.outer.get(name, [])

    def values(self, node: Node | None) -> list[Binding]:
        """The bindings behind a bare name (or ``this.name``) ``node``; empty otherwise."""
        if node is None:
            return []
        if node.type == "identifier":
            return self.bindings(text(node))
        if node.type == "field_access" and text(node.child_by_field_name("object")) == "this":
            return self.outer.get(text(node.child_by_field_name("field")), [])
        return []

    def value(self, node: Node | None) -> Lit | None:
        """The literal ``node`` always evaluates to: a literal, or a name with one value."""
        lit = value_of(node)
        if lit is not None:
            return lit
        found = {lit for _, lit in self.values(node)}
        return found.pop() if len(found) == 1 else None


def assigned_in(nodes: list[Node], names: set[str]) -> Iterator[Binding]:
    """(binding, literal) for literals assigned to one of ``names`` among ``nodes``."""
    for name, node, lit in bindings(nodes):
        if name in names and node is not None and lit is not None:
            yield node, lit


def returned_names(scope: Scope | None) -> set[str]:
    """Names a method returns bare (``return result;``)."""
    if scope is None:
        return set()
    return {
        text(n.named_children[0])
        for n in scope.nodes
        if n.type == "return_statement"
        and n.named_child_count
        and n.named_children[0].type == "identifier"
    }
