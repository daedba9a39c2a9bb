"""Similarity to the reference fix and exact match (seed 002's evaluation loop: edit distance,
AST similarity; the exact-match rate).

Both compare the code an attempt leaves (its patched files; the buggy files when nothing was
applied) with the code the reference fix leaves, as syntax trees, so formatting and comments
never count:

- a file's **labels** are its syntax tree in pre-order, one label per node: the node's kind, with
  its name, operator or literal where it has one (Python: the ``ast``, without the load/store
  contexts; Java: tree-sitter's tree, comments left out, a leaf with its text). Code that does not
  parse is read as its tokens (``\\w+`` runs and single other characters) instead;
- **exact match** (1/0): every code file either changed has the same labels in both;
- **similarity** (0..1): ``1 - d / max(len(a), len(b))`` with ``d`` the Levenshtein distance
  between the label sequences ``a`` and ``b`` of the *scopes* the attempt or the reference
  changes (1 when both are empty): a scope is a function (innermost, by qualified name, read
  from each file's own function spans, so a function the attempt deleted is empty in it) or
  the module (class) level outside every function; their labels are taken in file order, files
  by path.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from truepass.metrics.quality import Span, changed_lines, enclosing_function, spans_of
from truepass.patches.apply import unified_diff
from truepass.vocabulary import counted

if TYPE_CHECKING:
    import ast

    from truepass.metrics.quality import CodeMetrics
    from truepass.records import AttemptRecord

SIMILARITY, EXACT_MATCH = "similarity", "exact_match"
"""The per-attempt scores (``Judged.scores``): what ``truepass compare`` pairs"""

Labelled = list[tuple[int, str]]
"""(line, label) of every node of a file, in pre-order"""
Labeller = Callable[[str], Labelled | None]
"""A language's labels of one file's code; None when it does not parse"""

MAX_CELLS = 100_000_000
"""Above this many cells (after the common ends are trimmed) the distance is not computed."""
_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokens(source: str) -> Labelled:
    """The fallback labels of code that does not parse: its tokens with their lines."""
    return [
        (n, m.group())
        for n, line in enumerate(source.splitlines(), start=1)
        for m in _TOKEN.finditer(line)
    ]


def labels_of(source: str, labeller: Labeller | None) -> Labelled:
    """``source``'s labels by ``labeller``, else (no labeller, or it does not parse) tokens."""
    found = labeller(source) if labeller is not None else None
    return tokens(source) if found is None else found


def levenshtein(a: Sequence[str], b: Sequence[str]) -> int | None:
    """Edit distance (insert, delete, substitute; each 1) between two label sequences; None
    when too large to compute (:data:`MAX_CELLS`)."""
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a, end_b = end_a - 1, end_b - 1
    x, y = a[start:end_a], b[start:end_b]
    if not x or not y:
        return max(len(x), len(y))
    if len(x) * len(y) > MAX_CELLS:
        return None
    import numpy as np

    codes: dict[str, int] = {}
    xs = np.array([codes.setdefault(v, len(codes)) for v in x])
    ys = np.array([codes.setdefault(v, len(codes)) for v in y])
    # one row of the table at a time: row[j] = min(up + 1, diagonal + cost, row[j - 1] + 1);
    # the last term is a running minimum of row[k] - k, so each row is a few array operations
    steps = np.arange(len(ys) + 1)
    row = steps.copy()
    for i, p in enumerate(xs, start=1):
        best = np.empty_like(row)
        best[0] = i
        best[1:] = np.minimum(row[1:] + 1, row[:-1] + (ys != p))
        row = np.minimum.accumulate(best - steps) + steps
    return int(row[-1])


def similarity(a: Sequence[str], b: Sequence[str]) -> float | None:
    """``1 - levenshtein(a, b) / max(len(a), len(b))``; 1.0 for two empty sequences."""
    if not a and not b:
        return 1.0
    d = levenshtein(a, b)
    return None if d is None else round(1 - d / max(len(a), len(b)), 4)


def _scopes(spans: list[Span], lines: set[int]) -> set[str | None]:
    return {enclosing_function(spans, n) for n in lines}


def _region(labelled: Labelled, spans: list[Span], scopes: set[str | None]) -> list[str]:
    """The labels of ``scopes`` (function names; None: outside every function) in file order."""
    ranges = [(s, e) for name, s, e in spans if name in scopes]
    outside = None in scopes

    def wanted(line: int) -> bool:
        if any(s <= line <= e for s, e in ranges):
            return True
        return outside and not any(s <= line <= e for _, s, e in spans)

    return [label for line, label in labelled if wanted(line)]


def compare(
    buggy: dict[str, str],
    attempt: dict[str, str],
    reference: dict[str, str],
    metrics: CodeMetrics | None,
    labeller: Labeller | None,
) -> tuple[float | None, bool]:
    """(similarity, exact match) of the code files ``attempt`` leaves against those
    ``reference`` leaves, both from ``buggy`` (path -> text; a missing path: no such file)."""
    paths = sorted(
        p for p in {*buggy, *attempt, *reference}
        if attempt.get(p) != buggy.get(p) or reference.get(p) != buggy.get(p)
    )  # fmt: skip
    exact = True
    a_region: list[str] = []
    b_region: list[str] = []
    for path in paths:
        old, mine, theirs = buggy.get(path, ""), attempt.get(path, ""), reference.get(path, "")
        code = metrics is not None and path.endswith(metrics.code_suffix)
        la = labels_of(mine, labeller if code else None)
        lb = labels_of(theirs, labeller if code else None)
        exact = exact and [x for _, x in la] == [x for _, x in lb]
        touched: set[str | None] = set()
        old_spans = spans_of(metrics, path, old)
        for new in (mine, theirs):
            lines = changed_lines(unified_diff({path: old}, {path: new})).get(path, set())
            touched |= _scopes(old_spans, lines)
        a_region += _region(la, spans_of(metrics, path, mine), touched)
        b_region += _region(lb, spans_of(metrics, path, theirs), touched)
    return similarity(a_region, b_region), exact


_NAMED = {"Name": "id", "Attribute": "attr", "arg": "arg", "keyword": "arg", "alias": "name",
          "FunctionDef": "name", "AsyncFunctionDef": "name", "ClassDef": "name",
          "ImportFrom": "module", "Global": "names", "Nonlocal": "names"}  # fmt: skip


def node_label(node: ast.AST) -> str:
    """A Python syntax node's label: its kind, with a constant's value or a name's name."""
    import ast

    kind = type(node).__name__
    if isinstance(node, ast.Constant):
        return f"{kind}:{node.value!r}"
    if kind in _NAMED:
        return f"{kind}:{getattr(node, _NAMED[kind])}"
    return kind


def python_labels(source: str) -> Labelled | None:
    """Python's labels: the ``ast`` in pre-order, without load/store contexts; a name, attribute,
    argument, keyword, alias, definition or import with its name, a constant with its ``repr``."""
    import ast

    from truepass import pyast

    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # nested too deep: tokens
        return None
    out: Labelled = []
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]  # the module itself: outside every function
    while stack:
        node, line = stack.pop()
        if isinstance(node, ast.expr_context):
            continue
        line = getattr(node, "lineno", line)
        out.append((line, node_label(node)))
        stack.extend((child, line) for child in reversed(list(ast.iter_child_nodes(node))))
    return out


def java_labels(source: str) -> Labelled | None:
    """Java's labels: tree-sitter's tree in pre-order, comments left out; a leaf with its text
    (a named leaf as ``KIND:TEXT``, an anonymous one, an operator or keyword, as its text)."""
    from truepass.families.repair.fakefix.java.syntax import COMMENTS, parse, text

    root = parse(source)
    if root is None:
        return None
    out: Labelled = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in COMMENTS:
            continue
        line = node.start_point[0] + 1
        if node.child_count:
            out.append((line, node.type))
        else:
            out.append((line, f"{node.type}:{text(node)}" if node.is_named else node.type))
        stack.extend(reversed(node.children))
    return out


def reference_metrics(records: list[AttemptRecord]) -> dict[str, float]:
    """Over counted attempts with the scores: the mean ``similarity`` and the ``exact_match``
    rate, each with its 95% bootstrap interval (``NAME_ci_low``, ``NAME_ci_high``)."""
    from truepass.families.base import interval

    out: dict[str, float] = {}
    for name in (SIMILARITY, EXACT_MATCH):
        values = [r.scores[name] for r in records if counted(r.verdict) and name in r.scores]
        if values:
            out[name] = round(sum(values) / len(values), 4)
            out |= interval(name, values)
    return out
