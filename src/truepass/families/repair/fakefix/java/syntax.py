"""Java syntax trees for the fake-fix detectors (tree-sitter with the tree-sitter-java grammar).

A *scope* is a class body (its fields and initialiser blocks) or the body of one method or
constructor, named by its qualified name (``Calculator.divide``, ``Outer.Inner.get``) and keyed by
that name and its parameter types (overloads are different scopes). Detectors compare a scope of
the patched code with the scope of the same key (else the only one of that name) in the buggy
code, as the Python detectors do.

tree-sitter is separate from :mod:`truepass.pyast` (which guards CPython's own parser): a Parser
is made per parse, so that no parser is ever shared across threads. Nothing is compiled or run.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from tree_sitter import Language, Node, Parser

from truepass.families.repair.fakefix.nodes import NodeForms

T = TypeVar("T")
TYPES = (
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
    "annotation_type_declaration",
)
METHODS = ("method_declaration", "constructor_declaration", "compact_constructor_declaration")
COMMENTS = ("line_comment", "block_comment")
LOOPS = ("for_statement", "enhanced_for_statement", "while_statement", "do_statement")
BLOCKS = (
    *LOOPS,
    "if_statement",
    "try_statement",
    "try_with_resources_statement",
    "switch_expression",
    "synchronized_statement",
    "block",
)


@functools.cache
def language() -> Language:
    """The Java grammar (immutable: shared; parsers are not)."""
    import tree_sitter_java

    return Language(tree_sitter_java.language())


def parse(text: str | None) -> Node | None:
    """The compilation unit's root node, or None when there is no text or it does not parse."""
    if text is None:
        return None
    try:
        tree = Parser(language()).parse(text.encode("utf-8", "surrogatepass"))
    except (ValueError, UnicodeError, MemoryError):
        return None
    root = tree.root_node
    return None if root.has_error else root


def text(node: Node | None) -> str:
    """The source text of ``node``."""
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", "replace")


def walk(node: Node | None) -> Iterator[Node]:
    """``node`` and every named node under it, comments excepted, in source order."""
    stack = [] if node is None else [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(c for c in reversed(current.named_children) if c.type not in COMMENTS)


def walk_all(nodes: Sequence[Node]) -> Iterator[Node]:
    """Every named node under each of ``nodes``."""
    for node in nodes:
        yield from walk(node)


def key(node: Node | None) -> str:
    """A position- and layout-free form of ``node``: its tokens, comments left out (equal for
    equal code wherever it sits)."""
    if node is None:
        return ""
    tokens: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in COMMENTS:
            continue
        if current.child_count == 0:
            tokens.append(text(current))
        else:
            stack.extend(reversed(current.children))
    return " ".join(tokens)


def condition(node: Node) -> Node | None:
    """The condition of an ``if``/``while``/``do``/``for``/ternary, parentheses taken off."""
    found = node.child_by_field_name("condition")
    while (
        found is not None
        and found.type == "parenthesized_expression"
        and found.named_child_count == 1
    ):
        found = found.named_children[0]
    return found


def line_of(node: Node) -> int:
    """The 1-based line where ``node`` starts."""
    return int(node.start_point[0]) + 1


def show(node: Node | None, limit: int = 60) -> str:
    """Source text of ``node`` on one line, shortened to ``limit`` characters."""
    shown = " ".join(text(node).split())
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def names_in(node: Node | None) -> set[str]:
    """Identifiers used in ``node`` (variables, fields, called methods)."""
    return {text(n) for n in walk(node) if n.type == "identifier"}


def ancestors(node: Node, stop: Node | None = None) -> Iterator[Node]:
    """The parents of ``node``, innermost first, up to (not including) ``stop``."""
    parent = node.parent
    while parent is not None and (stop is None or parent.id != stop.id):
        yield parent
        parent = parent.parent


def callee(call: Node) -> str:
    """The method name of a ``method_invocation``."""
    return text(call.child_by_field_name("name"))


def receiver(call: Node) -> str:
    """The text of a ``method_invocation``'s object (``Objects`` of ``Objects.equals``)."""
    return text(call.child_by_field_name("object"))


def arguments(node: Node) -> list[Node]:
    """The argument expressions of a call or ``new`` expression."""
    args = node.child_by_field_name("arguments")
    return [] if args is None else [a for a in args.named_children if a.type not in COMMENTS]


def statements(block: Node | None) -> list[Node]:
    """The statements of a block (a single statement is its own list)."""
    if block is None:
        return []
    if block.type in ("block", "constructor_body", "switch_block_statement_group"):
        return [
            c for c in block.named_children if c.type not in COMMENTS and c.type != "switch_label"
        ]
    return [block]


@dataclass
class Scope:
    """The nodes of one class body (fields, initialisers) or one method body."""

    name: str  # qualified: Outer.Inner.method
    key: str  # name and parameter types: Outer.Inner.method(int,String)
    kind: str  # "class" or "method"
    root: Node
    nodes: list[Node] = field(default_factory=list)

    @property
    def simple_name(self) -> str:
        """The last part of the qualified name."""
        return self.name.rsplit(".", 1)[-1]

    def of_type(self, *types: str) -> list[Node]:
        """The nodes of this scope of the given types."""
        return [n for n in self.nodes if n.type in types]

    def parameters(self) -> list[str]:
        """Names of a method's parameters (empty for a class)."""
        params = self.root.child_by_field_name("parameters")
        if params is None:
            return []
        out = []
        for p in params.named_children:
            name = p.child_by_field_name("name")
            if name is None:  # spread_parameter: ``int... xs``
                declarator = next(
                    (c for c in p.named_children if c.type == "variable_declarator"), None
                )
                name = declarator.child_by_field_name("name") if declarator else None
            if name is not None:
                out.append(text(name))
        return out


def of_type(scope: Scope | None, *types: str) -> list[Node]:
    """The nodes of ``scope`` of the given types (empty for no scope)."""
    return [] if scope is None else scope.of_type(*types)


def _param_types(method: Node) -> str:
    params = method.child_by_field_name("parameters")
    if params is None:
        return ""
    types = []
    for p in params.named_children:
        if p.type in ("formal_parameter", "spread_parameter", "receiver_parameter"):
            kind = p.child_by_field_name("type") or next(
                (c for c in p.named_children if c.type != "modifiers"), None
            )
            types.append(key(kind).replace(" ", ""))
    return ",".join(types)


def _body_nodes(body: Node | None) -> list[Node]:
    return [] if body is None else list(walk(body))[1:]


def scopes(root: Node | None) -> dict[str, Scope]:
    """Every class and method scope of a compilation unit, by key."""
    out: dict[str, Scope] = {}
    if root is None:
        return out

    def visit_type(node: Node, prefix: str) -> None:
        name = prefix + text(node.child_by_field_name("name"))
        scope = out.setdefault(name, Scope(name, name, "class", node))
        body = node.child_by_field_name("body")
        members = [] if body is None else list(body.named_children)
        for member in list(members):
            if member.type == "enum_body_declarations":
                members += member.named_children
        for member in members:
            if member.type in TYPES:
                visit_type(member, name + ".")
            elif member.type in METHODS:
                simple = text(member.child_by_field_name("name"))
                qualified = f"{name}.{simple}"
                signature = f"{qualified}({_param_types(member)})"
                method = Scope(qualified, signature, "method", member)
                method.nodes = _body_nodes(member.child_by_field_name("body"))
                out.setdefault(signature, method)
            elif member.type not in COMMENTS:
                scope.nodes.extend(walk(member))

    for node in root.named_children:
        if node.type in TYPES:
            visit_type(node, "")
    return out


FORMS: NodeForms[Node] = NodeForms(line_of, show, key, lambda node: node.id)
"""How the shared rules read a Java node."""
