"""Expression mutation operators of the ``baseline:templates`` repair tool.

Every operator reads the AST of one suspicious line and proposes text edits on exact byte offsets
of the original source, so the rest of the file keeps its formatting. Mutants are text only:
nothing here executes candidate code, it only parses it (``ast.parse``) to drop broken mutants.
The statement-level templates (guards, try/except, return swap, removal) are in ``templates``;
``OPERATORS`` lists all of them in priority order.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from truepass import pyast
from truepass.pycode.sourcefile import Edit, SourceFile, function_locals, header_roots

ExprOperator = Callable[[SourceFile, ast.expr], Iterator[list[Edit]]]

OPERATORS = (
    "compare", "off-by-one", "arith", "bool", "negate", "call-swap", "constant", "none-guard",
    "key-guard", "try-except", "return-swap", "swap-pair", "attr-swap", "var-swap", "shift-value",
    "remove",
)  # fmt: skip
PRIORITY = {name: i for i, name in enumerate(OPERATORS)}

_CMP_RE = re.compile(r"not\s+in\b|is\s+not\b|<=|>=|==|!=|<|>|\bin\b|\bis\b")
_ARITH_RE = re.compile(r"//|\*\*|<<|>>|[-+*/%@&|^]")
_BOOL_RE = re.compile(r"\band\b|\bor\b")
_CMP_SWAPS: dict[type, tuple[str, ...]] = {
    ast.Lt: ("<=", ">", ">=", "==", "!="),
    ast.LtE: ("<", ">=", ">", "==", "!="),
    ast.Gt: (">=", "<", "<=", "==", "!="),
    ast.GtE: (">", "<=", "<", "==", "!="),
    ast.Eq: ("!=", "<=", ">="),
    ast.NotEq: ("==",),
    ast.Is: ("is not", "=="),
    ast.IsNot: ("is", "!="),
    ast.In: ("not in",),
    ast.NotIn: ("in",),
}
_ARITH_SWAPS: dict[type, tuple[str, ...]] = {
    ast.Add: ("-", "*"),
    ast.Sub: ("+",),
    ast.Mult: ("/", "//", "+", "**"),
    ast.Pow: ("*",),
    ast.Div: ("//", "*"),
    ast.FloorDiv: ("/", "%", "*"),
    ast.Mod: ("//",),
}
_CALL_SWAPS = {"min": "max", "max": "min", "any": "all", "all": "any"}
_ATOMS = (ast.Name, ast.Constant, ast.Attribute, ast.Call, ast.Subscript, ast.List, ast.Dict,
          ast.Tuple, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)  # fmt: skip
_ADDITIVE = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult)


@dataclass(frozen=True)
class Mutant:
    """One candidate change of one file, kept as edits until it is tried."""

    file: str
    line: int
    operator: str
    edits: tuple[Edit, ...]

    @property
    def priority(self) -> int:
        return PRIORITY[self.operator]


def grouped_edits(
    src: Any,
    line: int,
    order: Sequence[str],
    expr_ops: Iterable[tuple[str, Callable[[Any, Any], Iterator[list[Edit]]]]],
    stmt_ops: Iterable[tuple[str, Callable[[Any, Any], Iterator[list[Edit]]]]],
    per_op: int,
) -> list[tuple[str, tuple[Edit, ...]]]:
    """Every edit set of one line of ``src`` (a ``SourceFile`` or a ``JavaSource``): the
    expression operators on the line's expressions, the statement operators on its statements,
    duplicates dropped, at most ``per_op`` per operator, in ``order``."""
    groups: dict[str, list[tuple[Edit, ...]]] = {op: [] for op in order}
    nodes = src.nodes_at(line)
    for op, fn in expr_ops:
        for node in nodes:
            groups[op].extend(tuple(e) for e in fn(src, node))
    stmt_ops = list(stmt_ops)
    for stmt in src.stmts_at(line):
        for op, sfn in stmt_ops:
            groups[op].extend(tuple(e) for e in sfn(src, stmt))
    return [(op, edits) for op in order for edits in list(dict.fromkeys(groups[op]))[:per_op]]


def paren(src: SourceFile, node: ast.expr) -> str:
    """The node's text, parenthesised unless it is atomic."""
    text = src.seg(node)
    return text if isinstance(node, _ATOMS) else f"({text})"


def shifted(src: SourceFile, node: ast.expr, delta: int) -> str:
    """``node`` plus ``delta`` (±1); ``n - 1`` shifted by +1 is ``n``, not ``n - 1 + 1``."""
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Add | ast.Sub)
        and isinstance(node.right, ast.Constant)
        and type(node.right.value) is int
    ):
        k = (node.right.value if isinstance(node.op, ast.Add) else -node.right.value) + delta
        base = _additive_operand(src, node.left)
        return base if k == 0 else f"{base} {'+' if k > 0 else '-'} {abs(k)}"
    return f"{_additive_operand(src, node)} {'+' if delta > 0 else '-'} 1"


def _additive_operand(src: SourceFile, node: ast.expr) -> str:
    """The node's text as the left operand of ``+``/``-`` (parenthesised if it binds looser)."""
    keep = isinstance(node, (*_ATOMS, ast.UnaryOp)) or (
        isinstance(node, ast.BinOp) and isinstance(node.op, _ADDITIVE)
    )
    return src.seg(node) if keep else paren(src, node)


# --- expression-level operators: each yields edit lists for one node ---------------------------


def _compare(src: SourceFile, node: ast.expr) -> Iterator[list[Edit]]:
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        for i, op in enumerate(node.ops):
            tok = src.gap_token(operands[i], operands[i + 1], _CMP_RE)
            for alt in _CMP_SWAPS[type(op)] if tok else ():
                yield [(tok[0], tok[1], alt)]  # type: ignore[index]


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def _arith(src: SourceFile, node: ast.expr) -> Iterator[list[Edit]]:
    parent = src.parent.get(node)
    toks = []
    if isinstance(parent, ast.AugAssign) and parent.value is node:  # x += 1 -> x -= 1
        toks.append((src.gap_token(parent.target, node, _ARITH_RE), parent.op))
    if isinstance(node, ast.BinOp) and not (_is_text(node.left) or _is_text(node.right)):
        toks.append((src.gap_token(node.left, node.right, _ARITH_RE), node.op))
    for tok, op in toks:
        for alt in _ARITH_SWAPS.get(type(op), ()) if tok else ():
            yield [(tok[0], tok[1], alt)]  # type: ignore[index]


def _bool(src: SourceFile, node: ast.expr) -> Iterator[list[Edit]]:
    if isinstance(node, ast.BoolOp):
        alt = "or" if isinstance(node.op, ast.And) else "and"
        toks = [src.gap_token(a, b, _BOOL_RE) for a, b in itertools.pairwise(node.values)]
        if all(toks):
            yield [(t[0], t[1], alt) for t in toks if t]


def _negate(src: SourceFile, node: ast.expr) -> Iterator[list[Edit]]:
    parent = src.parent.get(node)
    is_test = (
        (isinstance(parent, ast.If | ast.While | ast.IfExp) and parent.test is node)
        or (isinstance(parent, ast.comprehension) and node in parent.ifs)
        or (
            isinstance(parent, ast.Return)
            and isinstance(node, ast.Compare | ast.BoolOp | ast.UnaryOp)
        )
    )
    if not is_test:
        return
    a, b = src.span(node)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = node.operand
        text = src.seg(inner) if isinstance(inner, (*_ATOMS, ast.Compare)) else paren(src, inner)
        yield [(a, b, text)]
    else:
        keep = isinstance(node, (*_ATOMS, ast.Compare))
        yield [(a, b, f"not {src.seg(node) if keep else paren(src, node)}")]


def _call_swap(src: SourceFile, node: ast.expr) -> Iterator[list[Edit]]:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        alt = _CALL_SWAPS.get(node.func.id)
        if alt:
            yield [(*src.span(node.func), alt)]


def _off_by_one(src: SourceFile, node: ast.expr) -> Iterator[list[Edit]]:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        for v in (node.value + 1, node.value - 1):
            yield [(*src.span(node), str(v))]
        return
    targets: list[ast.expr] = []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
        targets = list(node.args)
    elif isinstance(node, ast.Slice):
        targets = [e for e in (node.lower, node.upper) if e is not None]
    elif isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice | ast.Tuple):
        targets = [node.slice]
    for t in targets:
        if not (isinstance(t, ast.Constant) or _is_text(t)):
            for delta in (1, -1):
                yield [(*src.span(t), shifted(src, t, delta))]


def _shift_value(src: SourceFile, node: ast.expr) -> Iterator[list[Edit]]:
    """``x = f(a)`` -> ``x = f(a) + 1`` / ``- 1`` (assigned and returned values)."""
    parent = src.parent.get(node)
    numeric = isinstance(node, ast.Name | ast.Attribute | ast.Subscript | ast.Call) or (
        isinstance(node, ast.BinOp) and not (_is_text(node.left) or _is_text(node.right))
    )
    if numeric and isinstance(parent, ast.Assign | ast.Return) and parent.value is node:
        for delta in (1, -1):
            yield [(*src.span(node), shifted(src, node, delta))]


def _constant(src: SourceFile, node: ast.expr) -> Iterator[list[Edit]]:
    if not isinstance(node, ast.Constant):
        return
    span = src.span(node)
    if isinstance(node.value, bool):
        yield [(*span, str(not node.value))]
        return
    if not isinstance(node.value, int | float):
        return
    yield [(*span, "1" if node.value == 0 else "0")]
    scope = src.function_of(node) or src.tree
    others: dict[str, None] = {}
    for other in ast.walk(scope):
        if (
            isinstance(other, ast.Constant)
            and type(other.value) in (int, float)
            and other.value != node.value
        ):
            others.setdefault(src.seg(other))
    for text in list(others)[:6]:
        yield [(*span, text)]


def _key_guard(src: SourceFile, node: ast.expr) -> Iterator[list[Edit]]:
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.ctx, ast.Load)
        and not isinstance(node.slice, ast.Slice)
    ):
        yield [(*src.span(node), f"{paren(src, node.value)}.get({src.seg(node.slice)})")]


def _var_swap(src: SourceFile, node: ast.expr) -> Iterator[list[Edit]]:
    if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
        return
    parent = src.parent.get(node)
    if isinstance(parent, ast.Call) and parent.func is node:
        return
    func = src.function_of(node)
    names = function_locals(func) if func is not None else []
    if node.id in names:
        for other in names:
            if other != node.id:
                yield [(*src.span(node), other)]


def _attr_swap(src: SourceFile, node: ast.expr) -> Iterator[list[Edit]]:
    """``item.a`` -> ``item.b`` for other attributes of the same base read in the function."""
    if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
        return
    parent = src.parent.get(node)
    if isinstance(parent, ast.Call) and parent.func is node:
        return
    base, seen = src.seg(node.value), {node.attr}
    for other in ast.walk(src.function_of(node) or src.tree):
        if isinstance(other, ast.Attribute) and other.attr not in seen:
            callee = src.parent.get(other)
            if src.seg(other.value) == base and not (
                isinstance(callee, ast.Call) and callee.func is other
            ):
                seen.add(other.attr)
                yield [(src.span(node)[1] - len(node.attr.encode()), src.span(node)[1], other.attr)]


EXPR_OPERATORS: tuple[tuple[str, ExprOperator], ...] = (
    ("compare", _compare), ("off-by-one", _off_by_one), ("arith", _arith), ("bool", _bool),
    ("negate", _negate), ("call-swap", _call_swap), ("constant", _constant),
    ("shift-value", _shift_value), ("key-guard", _key_guard), ("attr-swap", _attr_swap),
    ("var-swap", _var_swap),
)  # fmt: skip


def render(src: SourceFile, mutant: Mutant) -> str | None:
    """The mutant's file text, or None when it does not parse or changes nothing."""
    text = src.apply(mutant.edits)
    if text == src.text:
        return None
    try:
        pyast.parse(text)
    except (SyntaxError, ValueError):
        return None
    return text


# --- statement templates: code replaced, inserted before or wrapped around a statement ---------


def swap_pair(src: SourceFile, stmt: ast.stmt) -> Iterator[list[Edit]]:
    """Exchange two local variables everywhere in the statement's header (``a, b`` -> ``b, a``)."""
    func = src.function_of(stmt)
    local = set(function_locals(func)) if func is not None else set()
    uses: dict[str, list[ast.Name]] = {}
    for root in header_roots(stmt):
        for n in ast.walk(root):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in local:
                uses.setdefault(n.id, []).append(n)
    for a, b in itertools.combinations(uses, 2):
        yield [(*src.span(n), b) for n in uses[a]] + [(*src.span(n), a) for n in uses[b]]


def return_swap(src: SourceFile, stmt: ast.stmt) -> Iterator[list[Edit]]:
    """``return a`` -> ``return b`` for the other expressions the function returns."""
    if not isinstance(stmt, ast.Return) or stmt.value is None:
        return
    func = src.function_of(stmt)
    mine = src.seg(stmt.value)
    seen: dict[str, None] = {}
    for node in ast.walk(func) if func is not None else ():
        if isinstance(node, ast.Return) and node.value is not None and node is not stmt:
            text = src.seg(node.value)
            if text != mine and src.function_of(node) is func:
                seen.setdefault(text)
    for text in seen:
        yield [(*src.span(stmt.value), text)]


def remove(src: SourceFile, stmt: ast.stmt) -> Iterator[list[Edit]]:
    """The statement replaced by ``pass``."""
    skip = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Pass, ast.Import)
    if not isinstance(stmt, skip) and src.owns_lines(stmt):
        yield [(*src.span(stmt), "pass")]


StmtOperator = Callable[[SourceFile, ast.stmt], Iterator[list[Edit]]]
STMT_OPERATORS: tuple[tuple[str, StmtOperator], ...] = (
    ("return-swap", return_swap), ("swap-pair", swap_pair), ("remove", remove),
)  # fmt: skip
