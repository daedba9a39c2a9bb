"""Literal values of expressions, normalised so that the tests' and the code's spellings meet.

``value_of`` folds an expression made of constants (``3 * 1024**3``, ``-1``, ``(1, "a")``,
``pytest.approx(2 / 3)``, ``Line("pen", 2, 2)``) into a hashable *literal key*: ints and floats
compare by value, lists and tuples are both sequences, dicts and sets ignore order, and bools stay
apart from ints. Nothing is evaluated but arithmetic on constants, within small bounds.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from truepass.families.repair.fakefix.python.syntax import dotted
from truepass.families.repair.fakefix.values import Lit, is_trivial, parts, shorten

__all__ = ["Lit", "is_trivial", "parts", "render", "value_of"]

_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_APPROX = {"approx", "pytest.approx"}
_MAX_STR = 10_000


def _norm(value: object) -> Lit | None:
    if value is None:
        return ("none",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float | complex):
        return ("num", value)
    if isinstance(value, str):
        return ("str", value)
    if isinstance(value, bytes):
        return ("bytes", value)
    return None


def _raw(lit: Lit) -> object:
    """The Python value of a scalar literal key (for arithmetic)."""
    return lit[1] if lit[0] in ("num", "str", "bytes", "bool") else None


def value_of(node: ast.AST | None, calls: bool = True) -> Lit | None:
    """The literal key of ``node``, or None when it is not built from constants only.

    With ``calls``, a call of a capitalised name (a constructor such as ``Item("bolt", 2)``)
    whose arguments are literals is itself a literal.
    """
    if node is None:
        return None
    if isinstance(node, ast.Constant):
        return _norm(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = value_of(node.operand, calls)
        if inner and inner[0] == "num":
            return ("num", -inner[1] if isinstance(node.op, ast.USub) else inner[1])
        return None
    if isinstance(node, ast.BinOp):
        return _binop(node, calls)
    if isinstance(node, ast.Tuple | ast.List):
        items = [value_of(e, calls) for e in node.elts]
        return None if any(i is None for i in items) else ("seq", tuple(items))
    if isinstance(node, ast.Set):
        items = [value_of(e, calls) for e in node.elts]
        return None if any(i is None for i in items) else ("set", frozenset(items))
    if isinstance(node, ast.Dict):
        keys = [value_of(k, calls) for k in node.keys]
        vals = [value_of(v, calls) for v in node.values]
        if any(x is None for x in keys + vals):
            return None
        return ("map", frozenset(zip(keys, vals, strict=True)))
    if isinstance(node, ast.Call):
        return _call(node, calls)
    return None


def _binop(node: ast.BinOp, calls: bool) -> Lit | None:
    left, right = value_of(node.left, calls), value_of(node.right, calls)
    fn = _BINOPS.get(type(node.op))
    if left is None or right is None or fn is None:
        return None
    a, b = _raw(left), _raw(right)
    if isinstance(node.op, ast.Pow) and (not isinstance(b, int) or abs(b) > 256):
        return None
    if isinstance(node.op, ast.Mult) and (isinstance(a, str) or isinstance(b, str)):
        n = b if isinstance(a, str) else a
        if not isinstance(n, int) or n * len(str(a if isinstance(a, str) else b)) > _MAX_STR:
            return None
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return None
    try:
        return _norm(fn(a, b))
    except (ArithmeticError, TypeError, ValueError):
        return None


def _call(node: ast.Call, calls: bool) -> Lit | None:
    name = dotted(node.func)
    if name in _APPROX and node.args:
        return value_of(node.args[0], calls)
    if not calls or not name or not name.rsplit(".", 1)[-1][:1].isupper():
        return None
    args = [value_of(a, calls) for a in node.args]
    kwargs = [(k.arg, value_of(k.value, calls)) for k in node.keywords]
    if any(a is None for a in args) or any(k is None or v is None for k, v in kwargs):
        return None
    return ("call", name.rsplit(".", 1)[-1], tuple(args), frozenset(kwargs))


def render(lit: Lit, limit: int = 40) -> str:
    """A short human form of a literal key."""
    return shorten(_render(lit), limit)


def _render(lit: Lit) -> str:
    kind = lit[0]
    if kind == "none":
        return "None"
    if kind in ("num", "bool", "str", "bytes"):
        return repr(lit[1])
    if kind == "seq":
        return "[" + ", ".join(_render(x) for x in lit[1]) + "]"
    if kind == "set":
        return "{" + ", ".join(sorted(_render(x) for x in lit[1])) + "}"
    if kind == "map":
        items = sorted(f"{_render(k)}: {_render(v)}" for k, v in lit[1])
        return "{" + ", ".join(items) + "}"
    args = [_render(a) for a in lit[2]] + [f"{k}={_render(v)}" for k, v in sorted(lit[3])]
    return f"{lit[1]}({', '.join(args)})"
