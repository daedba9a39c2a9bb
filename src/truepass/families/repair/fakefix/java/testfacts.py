"""What the visible JUnit tests reveal: expected values, inputs, and which go together.

The same facts as :mod:`truepass.families.repair.fakefix.python.testfacts`, read from ``.java`` test
files. An *expected value* is the literal argument of ``assertEquals``/``assertSame``/
``assertArrayEquals``/``assertIterableEquals`` (the message overload's leading string aside),
``true``/``false`` of ``assertTrue``/``assertFalse``, ``null`` of ``assertNull``, the matcher's
literal in ``assertThat(x, is(<lit>))``/``equalTo(<lit>)``, AssertJ's
``assertThat(x).isEqualTo(<lit>)``, or the literal side of ``assert f(x) == <lit>``. An *input*
is a literal argument of any call or ``new`` in a test (the whole argument, the sequence of all
arguments when there are two or more, and the elements of containers), a literal a test assigns
to a local variable, or an element of a literal array a test loops over.
"""

from __future__ import annotations

from tree_sitter import Node

from truepass.families.repair.fakefix.java.literals import value_of
from truepass.families.repair.fakefix.java.syntax import (
    arguments,
    callee,
    parse,
    scopes,
    text,
    walk,
)
from truepass.families.repair.fakefix.testfacts import TestFacts
from truepass.families.repair.fakefix.values import Lit

_EQUAL_ASSERTS = {
    "assertEquals",
    "assertSame",
    "assertArrayEquals",
    "assertIterableEquals",
    "assertLinesMatch",
}
_TRUTH_ASSERTS = {"assertTrue": ("bool", True), "assertFalse": ("bool", False)}
_NULL_ASSERTS = {"assertNull": ("none",)}
_MATCHERS = {"is", "equalTo", "sameInstance", "closeTo", "isEqualTo", "isSameAs", "containsExactly"}


def collect(tests: dict[str, str]) -> TestFacts:
    """Facts of every parseable ``.java`` file in ``tests``."""
    facts = TestFacts()
    for path, source in sorted(tests.items()):
        if not path.endswith(".java"):
            continue
        for scope in scopes(parse(source)).values():
            where = scope.simple_name if scope.kind == "method" else path.rsplit("/", 1)[-1]
            for node in scope.nodes:
                _visit(node, facts, where)
    return facts


def _visit(node: Node, facts: TestFacts, where: str) -> None:
    kind = node.type
    if kind == "assert_statement" and node.named_child_count:
        _assertion(node.named_children[0], facts, where)
    elif kind == "method_invocation":
        name = callee(node)
        if name in _EQUAL_ASSERTS or name in _TRUTH_ASSERTS or name in _NULL_ASSERTS:
            _assert_call(node, name, facts, where)
        elif name == "assertThat":
            _assert_that(node, facts, where)
        if not (name.startswith("assert") or name in _MATCHERS or name == "fail"):
            _call_inputs(node, facts, where)  # an assertion's own literals are not inputs
    elif kind == "object_creation_expression":
        _call_inputs(node, facts, where)
    elif kind == "variable_declarator" or kind == "enhanced_for_statement":
        lit = value_of(node.child_by_field_name("value"))
        if lit is not None:
            facts.add_input(lit, where)


def _call_inputs(call: Node, facts: TestFacts, where: str) -> list[Lit]:
    """Record the literal arguments of ``call`` as inputs; return them."""
    args = arguments(call)
    found = []
    for arg in args:
        lit = value_of(arg)
        if lit is not None:
            facts.add_input(lit, where)
            found.append(lit)
    if len(found) >= 2 and len(found) == len(args):
        whole: Lit = ("seq", tuple(found))
        facts.add_input(whole, where)
        found.append(whole)
    return found


def _inputs_under(node: Node, facts: TestFacts, where: str) -> list[Lit]:
    found = []
    for sub in walk(node):
        if sub.type == "object_creation_expression" or (
            sub.type == "method_invocation" and callee(sub) not in _MATCHERS
        ):
            found.extend(_call_inputs(sub, facts, where))
    return found


def _operands(call: Node, name: str) -> list[Node]:
    """The compared arguments of an assertion call, without a leading message string or a
    trailing delta."""
    args = arguments(call)
    if name in _TRUTH_ASSERTS or name in _NULL_ASSERTS:
        return args[-1:] if len(args) == 2 and args[0].type == "string_literal" else args[:1]
    if len(args) == 4 or (len(args) == 3 and args[0].type == "string_literal"):
        return args[1:3]
    return args[:2]


def _assert_call(call: Node, name: str, facts: TestFacts, where: str) -> None:
    args = _operands(call, name)
    fixed = _TRUTH_ASSERTS.get(name) or _NULL_ASSERTS.get(name)
    if fixed is not None:
        inputs = _inputs_under(args[0], facts, where) if args else []
        _record(fixed, inputs, facts, where, args[:1])
        return
    literal = [value_of(a) for a in args]
    subjects = [a for a, lit in zip(args, literal, strict=True) if lit is None]
    inputs = [x for s in subjects for x in _inputs_under(s, facts, where)]
    for lit in literal:
        if lit is not None:
            _record(lit, inputs, facts, where, subjects)


def _assert_that(call: Node, facts: TestFacts, where: str) -> None:
    """Hamcrest ``assertThat(x, is(<lit>))`` and AssertJ ``assertThat(x).isEqualTo(<lit>)``."""
    args = arguments(call)
    if len(args) == 3 and args[0].type == "string_literal":
        args = args[1:]
    if not args:
        return
    subject, matcher = args[0], args[1] if len(args) > 1 else None
    if matcher is None and call.parent is not None and call.parent.type == "method_invocation":
        chained = call.parent
        if chained.child_by_field_name("object") == call:
            matcher = chained
    while matcher is not None and matcher.type == "method_invocation":
        if callee(matcher) not in _MATCHERS:
            return
        inner = arguments(matcher)
        if len(inner) == 1 and value_of(inner[0]) is not None:
            inputs = _inputs_under(subject, facts, where)
            _record(value_of(inner[0]), inputs, facts, where, [subject])  # type: ignore[arg-type]
            return
        matcher = inner[0] if len(inner) == 1 else None


def _assertion(condition: Node, facts: TestFacts, where: str) -> None:
    """``assert f(x) == <lit>`` (and ``&&`` of such), ``assert !f(x)``, ``assert f(x)``."""
    while condition.type == "parenthesized_expression" and condition.named_child_count == 1:
        condition = condition.named_children[0]
    if condition.type == "binary_expression":
        op = text(condition.child_by_field_name("operator"))
        left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
        if op == "&&" and left is not None and right is not None:
            _assertion(left, facts, where)
            _assertion(right, facts, where)
            return
        if op == "==" and left is not None and right is not None:
            lits = [value_of(left), value_of(right)]
            subjects = [s for s, lit in zip((left, right), lits, strict=True) if lit is None]
            inputs = [x for s in subjects for x in _inputs_under(s, facts, where)]
            for lit in lits:
                if lit is not None:
                    _record(lit, inputs, facts, where, subjects)
            return
    if (
        condition.type == "unary_expression"
        and text(condition.child_by_field_name("operator")) == "!"
    ):
        operand = condition.child_by_field_name("operand")
        if operand is not None:
            _record(("bool", False), _inputs_under(operand, facts, where), facts, where, [operand])
        return
    _record(("bool", True), _inputs_under(condition, facts, where), facts, where, [condition])


def _record(
    expected: Lit, inputs: list[Lit], facts: TestFacts, where: str, subjects: list[Node]
) -> None:
    facts.record(expected, inputs, where, (_callee(n) for s in subjects for n in walk(s)))


def _callee(node: Node) -> str:
    """The method a call names, the class a ``new`` names, else ``""``."""
    if node.type == "method_invocation":
        return callee(node)
    if node.type == "object_creation_expression":
        return text(node.child_by_field_name("type")).split("<", 1)[0].rsplit(".", 1)[-1]
    return ""
