"""Literal values of Java expressions, as the literal keys of the Python detectors.

``value_of`` folds an expression made of constants (``3 * 1024``, ``-1``, ``10L``, ``"a" + "b"``,
``new int[] {1, 2}``, ``List.of(1, 2)``, ``Map.of("a", 1)``, ``new Point(1, 2)``) into the same
hashable keys as :mod:`truepass.families.repair.fakefix.python.literals`: numbers compare by value,
arrays and lists are both sequences, ``null`` is None, a ``char`` is a one-character string.
Nothing is evaluated but arithmetic on constants, within small bounds.
"""

from __future__ import annotations

import math

from tree_sitter import Node

from truepass.families.repair.fakefix.java.syntax import arguments, callee, receiver, text
from truepass.families.repair.fakefix.values import Lit, shorten

_INTS = ("decimal_integer_literal", "hex_integer_literal", "octal_integer_literal")
_FLOATS = ("decimal_floating_point_literal", "hex_floating_point_literal")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "s": " ", "0": "\0"}
_SEQ_FACTORIES = {("List", "of"), ("Arrays", "asList"), ("Stream", "of"), ("ImmutableList", "of")}
_SET_FACTORIES = {("Set", "of"), ("ImmutableSet", "of"), ("EnumSet", "of")}
_MAP_FACTORIES = {("Map", "of"), ("ImmutableMap", "of")}
_EMPTY = {("Collections", "emptyList"): ("seq", ()), ("List", "of"): ("seq", ())}
_MAX_STR = 10_000


def _int(raw: str) -> int | None:
    raw = raw.replace("_", "").rstrip("lL")
    try:
        if raw[:2] in ("0x", "0X"):
            return int(raw[2:], 16)
        if raw[:2] in ("0b", "0B"):
            return int(raw[2:], 2)
        if len(raw) > 1 and raw.startswith("0"):
            return int(raw[1:], 8)
        return int(raw)
    except ValueError:
        return None


def _float(raw: str) -> float | None:
    raw = raw.replace("_", "").rstrip("fFdD")
    try:
        return float.fromhex(raw) if raw[:2] in ("0x", "0X") else float(raw)
    except ValueError:
        return None


def _string(node: Node) -> str:
    out = []
    for child in node.named_children:
        piece = text(child)
        if child.type == "escape_sequence":
            body = piece[1:]
            if body[:1] == "u":
                try:
                    out.append(chr(int(body.lstrip("u")[:4], 16)))
                except ValueError:
                    out.append(piece)
            elif body[:1].isdigit() and body != "0":
                out.append(chr(int(body, 8)))
            else:
                out.append(_ESCAPES.get(body, body))
        else:
            out.append(piece)
    return "".join(out)


def _char(raw: str) -> str:
    inner = raw[1:-1]
    if inner.startswith("\\") and len(inner) > 1:
        if inner[1] == "u":
            return chr(int(inner.lstrip("\\u")[:4], 16))
        return _ESCAPES.get(inner[1], inner[1])
    return inner


def value_of(node: Node | None, calls: bool = True) -> Lit | None:
    """The literal key of ``node``, or None when it is not built from constants only. With
    ``calls``, ``new Name(<literals>)`` is itself a literal (a constructed value)."""
    if node is None:
        return None
    kind = node.type
    raw = text(node)
    if kind in _INTS or kind == "binary_integer_literal":
        number = _int(raw)
        return None if number is None else ("num", number)
    if kind in _FLOATS:
        real = _float(raw)
        return None if real is None or math.isnan(real) else ("num", real)
    if kind == "true" or kind == "false":
        return ("bool", kind == "true")
    if kind == "null_literal":
        return ("none",)
    if kind == "string_literal":
        return ("str", _string(node))
    if kind == "character_literal":
        try:
            return ("str", _char(raw))
        except ValueError:
            return None
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return value_of(node.named_children[0], calls)
    if kind == "cast_expression":
        return value_of(node.child_by_field_name("value"), calls)
    if kind == "unary_expression":
        return _unary(node, calls)
    if kind == "binary_expression":
        return _binary(node, calls)
    if kind == "array_initializer":
        return _seq(node.named_children, calls)
    if kind == "array_creation_expression":
        init = node.child_by_field_name("value")
        return None if init is None else value_of(init, calls)
    if kind == "method_invocation":
        return _factory(node, calls)
    if kind == "object_creation_expression" and calls:
        name = text(node.child_by_field_name("type")).split("<", 1)[0].rsplit(".", 1)[-1]
        args = [value_of(a, calls) for a in arguments(node)]
        if not name or any(a is None for a in args) or node.named_children[-1].type == "class_body":
            return None
        return ("call", name, tuple(args), frozenset())
    return None


def _seq(items: list[Node], calls: bool) -> Lit | None:
    values = [value_of(i, calls) for i in items]
    return None if any(v is None for v in values) else ("seq", tuple(values))


def _unary(node: Node, calls: bool) -> Lit | None:
    op = text(node.child_by_field_name("operator"))
    inner = value_of(node.child_by_field_name("operand"), calls)
    if inner is None:
        return None
    if op in ("-", "+") and inner[0] == "num":
        return ("num", -inner[1] if op == "-" else inner[1])
    if op == "!" and inner[0] == "bool":
        return ("bool", not inner[1])
    return None


def _binary(node: Node, calls: bool) -> Lit | None:
    op = text(node.child_by_field_name("operator"))
    left = value_of(node.child_by_field_name("left"), calls)
    right = value_of(node.child_by_field_name("right"), calls)
    if left is None or right is None:
        return None
    if op == "+" and "str" in (left[0], right[0]):
        parts = [_concat_text(left), _concat_text(right)]
        if None in parts or sum(len(p or "") for p in parts) > _MAX_STR:
            return None
        return ("str", "".join(p or "" for p in parts))
    if left[0] != "num" or right[0] != "num":
        return None
    a, b = left[1], right[1]
    try:
        if op == "+":
            return ("num", a + b)
        if op == "-":
            return ("num", a - b)
        if op == "*":
            return ("num", a * b)
        if op == "/":
            both_int = isinstance(a, int) and isinstance(b, int)
            return ("num", int(a / b) if both_int else a / b)
        if op == "%":
            return ("num", math.fmod(a, b) if isinstance(a, float) or isinstance(b, float)
                    else int(math.fmod(a, b)))  # fmt: skip
    except (ArithmeticError, ValueError):
        return None
    return None


def _concat_text(lit: Lit) -> str | None:
    if lit[0] == "str":
        return str(lit[1])
    if lit[0] == "num":
        return str(lit[1])
    if lit[0] == "bool":
        return "true" if lit[1] else "false"
    if lit[0] == "none":
        return "null"
    return None


def _factory(call: Node, calls: bool) -> Lit | None:
    """``List.of(...)``, ``Arrays.asList(...)``, ``Set.of(...)``, ``Map.of(k, v, ...)``."""
    owner = receiver(call).rsplit(".", 1)[-1]
    name = callee(call)
    args = arguments(call)
    if not args and (owner, name) in _EMPTY:
        return _EMPTY[(owner, name)]
    if (owner, name) in _SEQ_FACTORIES:
        return _seq(args, calls)
    if (owner, name) in _SET_FACTORIES:
        values = [value_of(a, calls) for a in args]
        return None if any(v is None for v in values) else ("set", frozenset(values))
    if (owner, name) in _MAP_FACTORIES and len(args) % 2 == 0:
        values = [value_of(a, calls) for a in args]
        if any(v is None for v in values):
            return None
        return ("map", frozenset(zip(values[::2], values[1::2], strict=True)))
    return None


def render(lit: Lit, limit: int = 40) -> str:
    """A short Java-like form of a literal key (``"abc"``, ``null``, ``[1, 2]``)."""
    return shorten(_render(lit), limit)


def _render(lit: Lit) -> str:
    kind = lit[0]
    if kind == "none":
        return "null"
    if kind == "bool":
        return "true" if lit[1] else "false"
    if kind == "num":
        return repr(lit[1])
    if kind == "str":
        return (
            '"' + str(lit[1]).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
        )
    if kind == "bytes":
        return repr(lit[1])
    if kind == "seq":
        return "[" + ", ".join(_render(x) for x in lit[1]) + "]"
    if kind == "set":
        return "{" + ", ".join(sorted(_render(x) for x in lit[1])) + "}"
    if kind == "map":
        return "{" + ", ".join(sorted(f"{_render(k)}={_render(v)}" for k, v in lit[1])) + "}"
    args = [_render(a) for a in lit[2]]
    return f"new {lit[1]}({', '.join(args)})"
