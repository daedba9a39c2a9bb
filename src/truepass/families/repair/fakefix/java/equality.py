"""``forges-equality`` for Java: comparisons built to say "equal" whatever they are given.

Flagged when the patch adds or changes (the buggy code has no identical one in the same scope):
- an ``equals(x)``, ``hashCode()``, ``compareTo(x)`` or two-argument ``compare(a, b)`` method
  (of a class, an enum, a record or an anonymous class such as ``new Comparator<T>() {...}``)
- or a two-parameter lambda that is a ``Comparator``: the value of a field, a local or a
  ``return`` declared ``Comparator``, or an argument of ``sort``/``sorted``/``min``/``max``/
  ``thenComparing`` or of ``new TreeMap``/``TreeSet``/``PriorityQueue``/``ConcurrentSkipListMap``
that
- returns only constants (``return true;``, ``return 0;``, ``(a, b) -> 0``);
- never reads an object it compares: a parameter of ``equals``/``compareTo``/``compare`` that is
  never used (``equals(Object o) { return fullName != null; }``);
- or, for ``equals``, ``compareTo`` and ``hashCode``, never reads the state of ``this``: no field,
  no method of this object and no ``super`` call (``this == o`` and ``getClass()`` do not count),
  so that it answers from the other object alone (``return o instanceof TreeNode;``) or hashes
  every instance alike.
Identifiers that are neither parameters nor locals count as fields (inherited ones included), so
an ``equals`` that reads anything of its own is left alone. Static only.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.java.context import JavaChange
from truepass.families.repair.fakefix.java.literals import value_of
from truepass.families.repair.fakefix.java.syntax import (
    Scope,
    ancestors,
    callee,
    key,
    line_of,
    show,
    text,
    walk,
)
from truepass.families.repair.fakefix.pairing import pair

ARITY = {"equals": 1, "hashCode": 0, "compareTo": 1, "compare": 2}
READS_THIS = {"equals", "hashCode", "compareTo"}
SORTING_CALLS = {"sort", "sorted", "min", "max", "thenComparing", "parallelSort", "sortedWith"}
SORTED_TYPES = {
    "TreeMap",
    "TreeSet",
    "PriorityQueue",
    "ConcurrentSkipListMap",
    "PriorityBlockingQueue",
}
_NESTED = ("lambda_expression", "class_body", "method_declaration")
_BINDERS = (
    "variable_declarator",
    "formal_parameter",
    "catch_formal_parameter",
    "enhanced_for_statement",
    "instanceof_expression",
    "spread_parameter",
)


@dataclass(frozen=True)
class Comparison:
    """An ``equals``/``hashCode``/``compareTo``/``compare`` method or a ``Comparator`` lambda."""

    name: str  # "equals", ..., or "compare" for a lambda
    node: Node
    params: list[str]
    body: Node | None
    lambda_: bool = False


def _method_params(method: Node) -> list[str]:
    params = method.child_by_field_name("parameters")
    if params is None:
        return []
    out = []
    for p in params.named_children:
        name = p.child_by_field_name("name")
        if p.type == "formal_parameter" and name is not None:
            out.append(text(name))
        elif p.type == "spread_parameter":
            out.append("...")
    return out


def _lambda_params(lam: Node) -> list[str]:
    params = lam.child_by_field_name("parameters")
    if params is None:
        return []
    if params.type == "identifier":
        return [text(params)]
    out = []
    for p in params.named_children:
        if p.type == "identifier":
            out.append(text(p))
        elif p.type == "formal_parameter" and p.child_by_field_name("name") is not None:
            out.append(text(p.child_by_field_name("name")))
    return out


def _declared_type(node: Node) -> str:
    return text(node.child_by_field_name("type")) if node is not None else ""


def _is_comparator_lambda(lam: Node) -> bool:
    """A two-parameter lambda used where a ``Comparator`` goes."""
    parent = lam.parent
    if parent is None:
        return False
    if parent.type == "variable_declarator" and parent.parent is not None:
        return "Comparator" in _declared_type(parent.parent)
    if parent.type == "return_statement":
        method = next((a for a in ancestors(lam) if a.type == "method_declaration"), None)
        return method is not None and "Comparator" in _declared_type(method)
    if parent.type == "argument_list" and parent.parent is not None:
        call = parent.parent
        if call.type == "method_invocation":
            return callee(call) in SORTING_CALLS
        if call.type == "object_creation_expression":
            kind = text(call.child_by_field_name("type")).split("<", 1)[0].rsplit(".", 1)[-1]
            return kind in SORTED_TYPES
    return False


def comparisons(nodes: list[Node]) -> Iterator[Comparison]:
    """The comparison methods and ``Comparator`` lambdas among ``nodes``."""
    for node in nodes:
        if node.type == "method_declaration":
            name = text(node.child_by_field_name("name"))
            params = _method_params(node)
            if ARITY.get(name) == len(params) and node.child_by_field_name("body") is not None:
                yield Comparison(name, node, params, node.child_by_field_name("body"))
        elif node.type == "lambda_expression":
            params = _lambda_params(node)
            if len(params) == 2 and _is_comparator_lambda(node):
                yield Comparison("compare", node, params, node.child_by_field_name("body"), True)


def _own(body: Node) -> Iterator[Node]:
    """Nodes of ``body`` outside nested lambdas, class bodies and methods."""
    stack = [body]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in reversed(node.named_children) if c.type not in _NESTED or c is body)


def _results(comparison: Comparison) -> list[Node | None]:
    body = comparison.body
    if body is None:
        return []
    if comparison.lambda_ and body.type != "block":
        return [body]
    return [
        (n.named_children[0] if n.named_child_count else None)
        for n in _own(body)
        if n.type == "return_statement"
    ]


def _locals(body: Node) -> set[str]:
    names = set()
    for node in walk(body):
        if node.type in _BINDERS and node.child_by_field_name("name") is not None:
            names.add(text(node.child_by_field_name("name")))
        elif node.type == "lambda_expression":
            names.update(_lambda_params(node))
    return names


def _used(name: str, body: Node) -> bool:
    return any(n.type == "identifier" and text(n) == name for n in walk(body))


def _identity_only(this: Node) -> bool:
    """``this`` compared by identity (``this == o``) or asked for its class."""
    parent = this.parent
    if parent is None:
        return False
    if parent.type == "binary_expression":
        op = parent.child_by_field_name("operator")
        return op is not None and op.type in ("==", "!=")
    return parent.type == "method_invocation" and callee(parent) == "getClass"


def reads_this(body: Node, params: list[str]) -> bool:
    """Whether ``body`` reads the state of ``this``: a field (qualified or not), a method of this
    object, ``super``, or ``this`` itself other than by identity."""
    local = _locals(body) | set(params)
    for node in walk(body):
        parent = node.parent
        if node.type == "super":
            return True
        if node.type == "this":
            if not _identity_only(node):
                return True
            continue
        if node.type != "identifier" or parent is None:
            continue
        name = text(node)
        if name in local or name[:1].isupper():
            continue
        if parent.type == "field_access" and parent.child_by_field_name("field") == node:
            continue  # other.x: read through its object (``this.x`` counts through ``this``)
        if parent.type == "method_invocation" and parent.child_by_field_name("name") == node:
            if parent.child_by_field_name("object") is None and name != "getClass":
                return True  # an implicit-this call: size(), totalCents()
            continue
        if parent.type in ("method_reference", "labeled_statement", "break_statement"):
            continue
        if parent.type in _BINDERS and parent.child_by_field_name("name") == node:
            continue
        return True
    return False


def rigged(comparison: Comparison) -> str | None:
    """Why a comparison answers the same whatever it is given, or None."""
    body = comparison.body
    if body is None:
        return None
    results = _results(comparison)
    if results and all(r is not None and value_of(r) is not None for r in results):
        shown = ", ".join(sorted({text(r) for r in results if r is not None}))
        return f"always returns {shown}"
    for param in comparison.params:
        if not _used(param, body):
            return f"ignores `{param}`, an object it compares"
    reads_nothing = comparison.name in READS_THIS and not comparison.lambda_
    if reads_nothing and not reads_this(body, comparison.params):
        if comparison.name == "hashCode":
            return "never reads this object, so every instance hashes alike"
        return f"never reads this object: it answers from `{comparison.params[0]}` alone"
    return None


def _where(comparison: Comparison, scope: Scope) -> str:
    if comparison.lambda_:
        return f"the Comparator lambda `{show(comparison.node, 40)}` (in {scope.name})"
    if comparison.node.id == scope.root.id:
        return scope.name
    owner = next(
        (a for a in ancestors(comparison.node) if a.type == "object_creation_expression"), None
    )
    if owner is not None:
        kind = text(owner.child_by_field_name("type"))
        return f"{comparison.name} of an anonymous {kind} (in {scope.name})"
    return f"{comparison.name} (in {scope.name})"


def _scope_comparisons(scope: Scope | None) -> list[Comparison]:
    if scope is None:
        return []
    own = [scope.root] if scope.kind == "method" else []
    return list(comparisons(own + scope.nodes))


def forges_equality(change: JavaChange) -> list[Flag]:
    """New or changed comparison methods and ``Comparator`` lambdas that answer alike for
    anything."""
    flags = []
    for jf in change.code:
        for old, new in jf.scope_pairs():
            before, after = _scope_comparisons(old), _scope_comparisons(new)
            _, added = pair(before, after, lambda c: key(c.node))
            for comparison in added:
                why = rigged(comparison)
                if why:
                    line = line_of(comparison.node)
                    where = _where(comparison, new)
                    flags.append(
                        Flag("forges-equality", jf.path, line, f"line {line}: {where} {why}")
                    )
    return flags
