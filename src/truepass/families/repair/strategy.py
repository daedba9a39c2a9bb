"""Fix strategy (seed 002's pyramid, layer 4): what kind of change a patch makes to the code it
touches, from the syntax trees of its changed scopes before and after (Python: the ``ast``;
Java: tree-sitter), the first class that applies:

1. ``handle-exception``: the patched scopes hold more ``try`` statements or exception handlers
   (Python ``Try``/``ExceptHandler``; Java ``try_statement``/``catch_clause``) than before;
2. ``add-boundary-check``: they hold more guards: ``if`` statements, conditional expressions and
   comprehension filters (Python ``If``, ``IfExp``, a comprehension's ``if``; Java
   ``if_statement``, ``ternary_expression``);
3. ``change-operator``: the label sequences are as long as before and differ only in operators
   (Python's operator nodes, ``Add`` ... ``NotIn``; Java's operator tokens);
4. ``modify-condition``: every label removed, replaced or added lies in a condition (the test of
   an ``if``, ``while``, ``for`` (Java), conditional expression, ``assert`` or comprehension
   filter);
5. ``adjust-algorithm``: any other change of the scopes' syntax trees;
6. ``other``: the trees did not change (formatting or comments only), or the code does not
   parse.

A scope is a function (the innermost holding a changed line) or the module level, as for the
similarity to the reference fix (:mod:`truepass.families.repair.similarity`); labels are those
of the similarity, each marked whether it lies in a condition.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from truepass.families.repair.similarity import node_label
from truepass.metrics.quality import changed_lines, enclosing_function, spans_of
from truepass.patches.apply import unified_diff
from truepass.vocabulary import counted

if TYPE_CHECKING:
    from truepass.metrics.quality import CodeMetrics
    from truepass.records import AttemptRecord

SAME_STRATEGY = "same_strategy"
"""The per-attempt score: 1 when the attempt's strategy is the reference fix's"""


class FixStrategy(StrEnum):
    """Seed 002's fix strategies, plus ``other``."""

    HANDLE_EXCEPTION = "handle-exception"
    ADD_BOUNDARY_CHECK = "add-boundary-check"
    CHANGE_OPERATOR = "change-operator"
    MODIFY_CONDITION = "modify-condition"
    ADJUST_ALGORITHM = "adjust-algorithm"
    OTHER = "other"


Marked = list[tuple[int, str, bool]]
"""(line, label, in a condition) of every node of a file, in pre-order"""
StrategyLabeller = Callable[[str], Marked | None]


class StrategyReader(NamedTuple):
    """How a language's code is read for its fix strategy."""

    labeller: StrategyLabeller
    kinds: tuple[frozenset[str], frozenset[str], frozenset[str]]
    """its operator, try and guard labels"""


PY_OPERATORS = frozenset(
    [
        "Add",
        "Sub",
        "Mult",
        "MatMult",
        "Div",
        "Mod",
        "Pow",
        "LShift",
        "RShift",
        "BitOr",
        "BitXor",
        "BitAnd",
        "FloorDiv",
        "And",
        "Or",
        "Not",
        "Invert",
        "UAdd",
        "USub",
        "Eq",
        "NotEq",
        "Lt",
        "LtE",
        "Gt",
        "GtE",
        "Is",
        "IsNot",
        "In",
        "NotIn",
    ]
)
PY_TRIES = frozenset({"Try", "TryStar", "ExceptHandler"})
PY_GUARDS = frozenset({"If", "IfExp", "CompIf"})
JAVA_OPERATORS = frozenset(
    [
        "+",
        "-",
        "*",
        "/",
        "%",
        "++",
        "--",
        "==",
        "!=",
        "<",
        ">",
        "<=",
        ">=",
        "&&",
        "||",
        "!",
        "&",
        "|",
        "^",
        "~",
        "<<",
        ">>",
        ">>>",
        "+=",
        "-=",
        "*=",
        "/=",
        "%=",
        "&=",
        "|=",
        "^=",
        "<<=",
        ">>=",
        ">>>=",
        "instanceof",
    ]
)
JAVA_TRIES = frozenset({"try_statement", "try_with_resources_statement", "catch_clause"})
JAVA_GUARDS = frozenset({"if_statement", "ternary_expression"})
_JAVA_CONDITIONS = frozenset(
    {"if_statement", "while_statement", "do_statement", "for_statement", "ternary_expression"}
)


def python_marked(source: str) -> Marked | None:
    """Python's labels (as :func:`~truepass.families.repair.similarity.python_labels`), each
    marked whether it lies in a condition; a comprehension's filter is a ``CompIf`` node."""
    import ast

    from truepass import pyast

    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    out: Marked = []
    stack: list[tuple[ast.AST | str, int, bool]] = [(tree, 0, False)]
    while stack:
        node, line, cond = stack.pop()
        if isinstance(node, str):  # a comprehension's filter, made a node of its own
            out.append((line, node, cond))
            continue
        if isinstance(node, ast.expr_context):
            continue
        line = getattr(node, "lineno", line)
        out.append((line, node_label(node), cond))
        children: list[tuple[ast.AST | str, int, bool]] = []
        for name, value in ast.iter_fields(node):
            inside = cond or (
                (name == "test" and isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert))
                or (name == "ifs" and isinstance(node, ast.comprehension))
            )
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, ast.AST):
                    if name == "ifs":
                        children.append(("CompIf", line, True))
                    children.append((item, line, inside))
        stack.extend(reversed(children))
    return out


def java_marked(source: str) -> Marked | None:
    """Java's labels (as :func:`~truepass.families.repair.similarity.java_labels`), each marked
    whether it lies in the ``condition`` of an ``if``, loop or conditional expression."""
    from truepass.families.repair.fakefix.java.syntax import COMMENTS, parse, text

    root = parse(source)
    if root is None:
        return None
    out: Marked = []
    stack = [(root, False)]
    while stack:
        node, cond = stack.pop()
        if node.type in COMMENTS:
            continue
        line = node.start_point[0] + 1
        if node.child_count:
            out.append((line, node.type, cond))
        else:
            out.append((line, f"{node.type}:{text(node)}" if node.is_named else node.type, cond))
        test = node.child_by_field_name("condition") if node.type in _JAVA_CONDITIONS else None
        stack.extend(
            (child, cond or (test is not None and child.id == test.id))
            for child in reversed(node.children)
        )
    return out


def _region(marked: Marked, spans: list[tuple[str, int, int]], scopes: set[str | None]) -> Marked:
    ranges = [(s, e) for name, s, e in spans if name in scopes]
    outside = None in scopes

    def wanted(line: int) -> bool:
        if any(s <= line <= e for s, e in ranges):
            return True
        return outside and not any(s <= line <= e for _, s, e in spans)

    return [m for m in marked if wanted(m[0])]


def classify_labels(
    before: Marked, after: Marked, operators: frozenset[str], tries: frozenset[str],
    guards: frozenset[str],
) -> FixStrategy:  # fmt: skip
    """The strategy of a change of the changed scopes' labels ``before`` to ``after``."""
    a = [label for _, label, _ in before]
    b = [label for _, label, _ in after]
    if a == b:
        return FixStrategy.OTHER
    ca, cb = Counter(a), Counter(b)
    if sum(cb[t] for t in tries) > sum(ca[t] for t in tries):
        return FixStrategy.HANDLE_EXCEPTION
    if sum(cb[g] for g in guards) > sum(ca[g] for g in guards):
        return FixStrategy.ADD_BOUNDARY_CHECK

    def operator(label: str) -> bool:
        return label in operators

    if len(a) == len(b) and all(
        x == y or (operator(x) and operator(y)) for x, y in zip(a, b, strict=True)
    ):
        return FixStrategy.CHANGE_OPERATOR
    in_condition = True
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        touched = [before[i][2] for i in range(i1, i2)] + [after[j][2] for j in range(j1, j2)]
        in_condition = in_condition and all(touched)
    return FixStrategy.MODIFY_CONDITION if in_condition else FixStrategy.ADJUST_ALGORITHM


def classify(
    buggy: dict[str, str],
    patched: dict[str, str],
    metrics: CodeMetrics | None,
    reader: StrategyReader | None,
) -> FixStrategy | None:
    """The fix strategy of the change from ``buggy`` to ``patched`` (path -> text) over the
    code files of ``metrics``' language, read by the language's ``reader``; None when no code
    file changed."""
    if metrics is None:
        return None
    paths = sorted(
        p for p in {*buggy, *patched}
        if p.endswith(metrics.code_suffix) and buggy.get(p) != patched.get(p)
    )  # fmt: skip
    if not paths:
        return None
    if reader is None:
        return FixStrategy.OTHER
    before: Marked = []
    after: Marked = []
    for path in paths:
        old, new = buggy.get(path, ""), patched.get(path, "")
        lo, ln = reader.labeller(old), reader.labeller(new)
        if lo is None or ln is None:
            return FixStrategy.OTHER
        lines = changed_lines(unified_diff({path: old}, {path: new})).get(path, set())
        old_spans = spans_of(metrics, path, old)
        scopes = {enclosing_function(old_spans, n) for n in lines}
        before += _region(lo, old_spans, scopes)
        after += _region(ln, spans_of(metrics, path, new), scopes)
    return classify_labels(before, after, *reader.kinds)


def strategy_metrics(
    typed: Sequence[tuple[AttemptRecord, FixStrategy | None]],
) -> dict[str, float]:
    """Over counted attempts with a strategy (those that changed code): the share of each
    strategy (``fix_strategy[S]``, every strategy), the share per defect type of the strategies
    that occur (``fix_strategy[DEFECT_TYPE/S]``), and the same-strategy-as-reference rate
    (``same_strategy``, with its 95% bootstrap interval; ``same_strategy[DEFECT_TYPE]``)."""
    from truepass.families.base import interval

    known = [(r, s) for r, s in typed if s is not None and counted(r.verdict)]
    if not known:
        return {}
    n = Counter(s for _, s in known)
    out: dict[str, float] = {}
    for s in FixStrategy:
        out[f"fix_strategy[{s.value}]"] = round(n[s] / len(known), 4)
    per_type: dict[str, Counter[FixStrategy]] = {}
    for r, s in known:
        per_type.setdefault(r.defect_type, Counter())[s] += 1
    for defect, got in sorted(per_type.items()):
        total = sum(got.values())
        for s in FixStrategy:
            if got[s]:
                out[f"fix_strategy[{defect}/{s.value}]"] = round(got[s] / total, 4)
    same = [r.scores[SAME_STRATEGY] for r, _ in known if SAME_STRATEGY in r.scores]
    if same:
        out[SAME_STRATEGY] = round(sum(same) / len(same), 4)
        out |= interval(SAME_STRATEGY, same)
        by_type: dict[str, list[float]] = {}
        for r, _ in known:
            if SAME_STRATEGY in r.scores:
                by_type.setdefault(r.defect_type, []).append(r.scores[SAME_STRATEGY])
        for defect, values in sorted(by_type.items()):
            out[f"{SAME_STRATEGY}[{defect}]"] = round(sum(values) / len(values), 4)
    return out
