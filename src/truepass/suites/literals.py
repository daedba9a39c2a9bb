"""Python literals as text: how codegen suites store test inputs and expected values.

A case's arguments and expected value are written the way they would appear in Python source
(``"[1, 2], 'a'"``, ``"(1.5, None)"``, ``"{'k': {1, 2}}"``), readable by people and exact for
tuples, sets and floats, which JSON is not. Parsing never runs code: it accepts what
:func:`ast.literal_eval` accepts, plus ``inf``/``nan`` (``float('inf')``, ``math.inf``), so
every plain value that ``repr`` prints can be read back.
"""

from __future__ import annotations

import ast
import copy
import functools
import math

from truepass import pyast
from truepass.sandbox.guest.plainvalues import plain_equal

_SPECIAL_NAMES = {"inf": math.inf, "nan": math.nan}


class LiteralError(ValueError):
    """The text is not a plain Python literal."""


def _special(node: ast.AST) -> float | None:
    if isinstance(node, ast.Name) and node.id in _SPECIAL_NAMES:
        return _SPECIAL_NAMES[node.id]
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "math"
        and node.attr in _SPECIAL_NAMES
    ):
        return _SPECIAL_NAMES[node.attr]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "float"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
        and node.args[0].value.strip().lstrip("+-").lower() in ("inf", "infinity", "nan")
    ):
        return float(node.args[0].value)
    return None


_CACHED_TEXT = 4096  # literals up to this long are parsed once per process (see parse_literal)
_IMMUTABLE = (int, float, complex, str, bytes, bool, type(None))


def parse_literal(text: str, *, fresh: bool = True) -> object:
    """The value of one Python literal expression (no code runs).

    A suite's literals are read when it loads, when its samples are checked and when each
    attempt is judged; short ones are parsed once per process. ``fresh`` (the default) hands
    out a copy the caller may change; ``fresh=False`` the shared value itself, for callers that
    only read it (the judge encodes arguments and compares expected values)."""
    if len(text) > _CACHED_TEXT:
        return _parse(text)
    value = _parse_once(text)
    return value if not fresh or isinstance(value, _IMMUTABLE) else copy.deepcopy(value)


@functools.lru_cache(maxsize=1 << 15)
def _parse_once(text: str) -> object:
    return _parse(text)


def _parse(text: str) -> object:
    try:
        tree = pyast.parse_expression(text.strip())
    except SyntaxError as exc:
        raise LiteralError(f"not a Python literal: {exc.msg}") from exc
    try:  # inf and nan are names or calls, which literal_eval refuses: then the slow path
        return ast.literal_eval(tree)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        if not any(_special(n) is not None for n in ast.walk(tree)):
            raise LiteralError(f"not a plain Python literal ({exc})") from exc
    return _eval(tree.body)


def _eval(node: ast.AST) -> object:
    special = _special(node)
    if special is not None:
        return special
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _eval(node.operand)
        if isinstance(operand, int | float) and not isinstance(operand, bool):
            return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.Tuple):
        return tuple(_eval(e) for e in node.elts)
    if isinstance(node, ast.List):
        return [_eval(e) for e in node.elts]
    if isinstance(node, ast.Set):
        return {_eval(e) for e in node.elts}  # type: ignore[misc]
    if isinstance(node, ast.Dict) and None not in node.keys:
        return {_eval(k): _eval(v) for k, v in zip(node.keys, node.values, strict=True)}  # type: ignore[arg-type,misc]
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError) as exc:
        raise LiteralError(f"not a plain Python literal ({exc})") from exc


def parse_args(text: str, *, fresh: bool = True) -> list[object]:
    """Positional arguments written as they appear inside a call's parentheses: ``"[1, 2], 3"``
    (``fresh``: see :func:`parse_literal`)."""
    value = parse_literal(f"({text},)" if text.strip() else "()", fresh=fresh)
    assert isinstance(value, tuple)
    return list(value)


def format_args(args: list[object] | tuple[object, ...]) -> str:
    """The inverse of :func:`parse_args`: ``[[1, 2], 3]`` -> ``"[1, 2], 3"``."""
    return ", ".join(format_literal(a) for a in args)


def format_literal(value: object) -> str:
    """``repr`` that :func:`parse_literal` reads back, also for inf and nan anywhere inside."""
    text = repr(value)
    try:
        back = parse_literal(text, fresh=False)  # only compared
    except LiteralError as exc:
        raise LiteralError(f"not a plain value: {type(value).__name__}") from exc
    if not plain_equal(value, back):
        raise LiteralError(f"{type(value).__name__} does not round-trip as a literal")
    return text
