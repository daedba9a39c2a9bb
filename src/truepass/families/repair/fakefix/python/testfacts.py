"""What the visible tests reveal to a solver: expected values, inputs, and which go together.

An *expected value* is the literal side of an assertion (``assert f(x) == <lit>``,
``self.assertEqual(f(x), <lit>)``, ``pytest.approx(<lit>)``, True/False for ``assert f(x)`` and
``assert not f(x)``). An *input* is a literal passed to a call in a test (the whole argument, the
tuple of all positional arguments, and the elements of container arguments), a literal a test
assigns to a variable, or an element a test loops over. A *pair* links the inputs and the
expected value of one assertion (``part_pairs`` also links them to the parts of that value);
``by_callee`` lists the expected values of the assertions that call each function.
"""

from __future__ import annotations

import ast

from truepass.families.repair.fakefix.python.literals import Lit, value_of
from truepass.families.repair.fakefix.python.syntax import dotted, parse, scopes
from truepass.families.repair.fakefix.testfacts import TestFacts

_EQUAL_ASSERTS = {
    "assertEqual",
    "assertEquals",
    "assertListEqual",
    "assertTupleEqual",
    "assertDictEqual",
    "assertSetEqual",
    "assertSequenceEqual",
    "assertCountEqual",
    "assertAlmostEqual",
    "assertIs",
    "assert_equal",
    "assert_array_equal",
    "assert_allclose",
}
_TRUTH_ASSERTS = {"assertTrue": ("bool", True), "assertFalse": ("bool", False)}


def collect(tests: dict[str, str]) -> TestFacts:
    """Facts of every parseable test file in ``tests``."""
    facts = TestFacts()
    for path, text in sorted(tests.items()):
        if not path.endswith(".py"):
            continue
        for scope in scopes(parse(text, path)).values():
            where = scope.simple_name if scope.kind == "function" else path
            for node in scope.nodes:
                _visit(node, facts, where)
    return facts


def _visit(node: ast.AST, facts: TestFacts, where: str) -> None:
    if isinstance(node, ast.Assert):
        _assertion(node.test, facts, where)
    elif isinstance(node, ast.Call):
        name = (dotted(node.func) or "").rsplit(".", 1)[-1]
        if name in _EQUAL_ASSERTS or name in _TRUTH_ASSERTS:
            _assert_call(node, name, facts, where)
        _call_inputs(node, facts, where)
    elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
        lit = value_of(node.value)
        if lit is not None:
            facts.add_input(lit, where)
    elif isinstance(node, ast.For):
        lit = value_of(node.iter)
        if lit is not None:
            facts.add_input(lit, where)


def _call_inputs(call: ast.Call, facts: TestFacts, where: str) -> list[Lit]:
    """Record the literal arguments of ``call`` as inputs; return them."""
    found = []
    positional = []
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        lit = value_of(arg)
        if lit is not None:
            facts.add_input(lit, where)
            found.append(lit)
            if arg in call.args:
                positional.append(lit)
    if len(positional) >= 2 and len(positional) == len(call.args):
        whole: Lit = ("seq", tuple(positional))
        facts.add_input(whole, where)
        found.append(whole)
    return found


def _inputs_under(node: ast.AST, facts: TestFacts, where: str) -> list[Lit]:
    found = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            found.extend(_call_inputs(sub, facts, where))
    return found


def _assertion(test: ast.AST, facts: TestFacts, where: str) -> None:
    if isinstance(test, ast.BoolOp):
        for value in test.values:
            _assertion(value, facts, where)
        return
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        _record(
            ("bool", False), _inputs_under(test.operand, facts, where), facts, where, [test.operand]
        )
        return
    if isinstance(test, ast.Compare):
        operands = [test.left, *test.comparators]
        eq_like = all(isinstance(op, ast.Eq | ast.Is) for op in test.ops)
        literal = [value_of(o) for o in operands]
        inputs: list[Lit] = []
        subjects = [o for o, lit in zip(operands, literal, strict=True) if lit is None]
        for operand in subjects:
            inputs += _inputs_under(operand, facts, where)
        for lit in literal:
            if lit is not None and eq_like:
                _record(lit, inputs, facts, where, subjects)
        return
    _record(("bool", True), _inputs_under(test, facts, where), facts, where, [test])


def _assert_call(call: ast.Call, name: str, facts: TestFacts, where: str) -> None:
    args = list(call.args[:2])
    if name in _TRUTH_ASSERTS:
        _record(
            _TRUTH_ASSERTS[name],
            _inputs_under(args[0], facts, where) if args else [],
            facts,
            where,
            args[:1],
        )
        return
    literal = [value_of(a) for a in args]
    inputs: list[Lit] = []
    subjects = [a for a, lit in zip(args, literal, strict=True) if lit is None]
    for arg in subjects:
        inputs += _inputs_under(arg, facts, where)
    for lit in literal:
        if lit is not None:
            _record(lit, inputs, facts, where, subjects)


def _record(
    expected: Lit, inputs: list[Lit], facts: TestFacts, where: str, subjects: list[ast.AST]
) -> None:
    callees = (
        (dotted(node.func) or "").rsplit(".", 1)[-1]
        for subject in subjects
        for node in ast.walk(subject)
        if isinstance(node, ast.Call)
    )
    facts.record(expected, inputs, where, callees)
