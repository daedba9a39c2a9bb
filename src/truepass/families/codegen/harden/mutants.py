"""Mutants of a canonical solution: the wrong solutions that hardened tests must kill.

The operators are the repair tool's (:mod:`truepass.pycode.mutants` and the statement
templates of :mod:`truepass.families.repair.solvers.templates`): comparison swaps (``<`` -> ``<=``
...: boundary
changes), arithmetic swaps, ``and``/``or``, negated conditions, off-by-one on constants, ranges,
slices and indices, other constants, ``min``/``max`` and ``any``/``all`` swaps, shifted values,
swapped attributes and variables, swapped returns, removed statements; plus one of our own here,
``arg-swap`` (two positional arguments of a call exchanged). The repair-only templates (None
guards, try/except, ``.get`` guards) are left out: they add robustness, not wrong answers.

Only the lines of the canonical solution are mutated, never the prompt (its helpers and
docstring). A mutant is text: nothing here runs it. Mutants that do not parse, or whose syntax
tree equals the original's or an earlier mutant's, are dropped.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from truepass import pyast
from truepass.pycode.mutants import EXPR_OPERATORS, STMT_OPERATORS
from truepass.pycode.sourcefile import Edit, SourceFile
from truepass.pycode.values import rng_for

SKIPPED = frozenset({"key-guard"})
SYMMETRIC = frozenset({"min", "max", "abs", "set", "frozenset"})
PER_OPERATOR_PER_LINE = 8
MAX_MUTANTS = 120


@dataclass(frozen=True)
class CodeMutant:
    """One mutant: the whole module text and where it came from."""

    index: int
    operator: str
    line: int
    code: str

    @property
    def name(self) -> str:
        return f"m{self.index}:{self.operator}@{self.line}"


def arg_swap(src: SourceFile, node: ast.expr) -> Iterator[list[Edit]]:
    """``f(a, b)`` -> ``f(b, a)`` for each adjacent pair of positional arguments (not for the
    symmetric ``min``, ``max``, ``abs``)."""
    symmetric = (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and (node.func.id in SYMMETRIC)
    )
    if isinstance(node, ast.Call) and not symmetric:
        args = [a for a in node.args if not isinstance(a, ast.Starred)]
        for a, b in itertools.pairwise(args):
            if src.seg(a) != src.seg(b):
                yield [(*src.span(a), src.seg(b)), (*src.span(b), src.seg(a))]


def mutants_of(
    prompt: str,
    canonical: str,
    *,
    limit: int = MAX_MUTANTS,
    per_operator: int = PER_OPERATOR_PER_LINE,
    seed: int = 0,
    key: str = "",
) -> list[CodeMutant]:
    """Distinct parsing mutants of ``prompt + canonical`` changing only the canonical lines.

    At most ``per_operator`` mutants of one operator on one line; when there are more than
    ``limit`` in all, a seeded random choice of ``limit`` of them (kept in source order).
    """
    code = prompt + canonical
    try:
        src = SourceFile("solution.py", code)
    except (SyntaxError, ValueError):
        return []
    first = prompt.count("\n") + 1
    start = len(prompt.encode("utf-8"))
    last = code.count("\n") + 1
    seen = {_shape(src.tree)}
    found: list[tuple[str, int, str]] = []
    operators = [(n, f) for n, f in EXPR_OPERATORS if n not in SKIPPED] + [("arg-swap", arg_swap)]
    for line in range(first, last + 1):
        groups: dict[str, list[tuple[Edit, ...]]] = {}
        nodes = src.nodes_at(line)
        for name, fn in operators:
            for node in nodes:
                groups.setdefault(name, []).extend(tuple(e) for e in fn(src, node))
        for stmt in src.stmts_at(line):
            for name, sfn in STMT_OPERATORS:
                groups.setdefault(name, []).extend(tuple(e) for e in sfn(src, stmt))
        for name, edit_lists in groups.items():
            kept = 0
            for edits in dict.fromkeys(edit_lists):
                if kept >= per_operator:
                    break
                if any(a < start for a, _, _ in edits):
                    continue  # never mutate the prompt
                text = _render(src, edits)
                if text is None:
                    continue
                shape = _shape(pyast.parse(text))
                if shape in seen:
                    continue
                seen.add(shape)
                found.append((name, line, text))
                kept += 1
    if len(found) > limit:
        chosen = sorted(rng_for(seed, "mutants:" + key).sample(range(len(found)), limit))
        found = [found[i] for i in chosen]
    return [CodeMutant(i, name, line, text) for i, (name, line, text) in enumerate(found)]


def _render(src: SourceFile, edits: tuple[Edit, ...]) -> str | None:
    try:
        text = src.apply(edits)
        pyast.parse(text)
    except (SyntaxError, ValueError, UnicodeDecodeError):
        return None
    return text


def _shape(tree: ast.AST) -> str:
    return ast.dump(tree, annotate_fields=False)
