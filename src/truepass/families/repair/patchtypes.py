"""Patch types (seed 001): how far a patch reaches, from one line to several files.

A patch is classified by its judged diff (the diff actually applied, three lines of context)
and the function spans of the buggy files (the code's language's
:class:`~truepass.metrics.quality.CodeMetrics`: the ``ast`` for Python, lizard for Java), the
first class that applies, in this order:

1. ``several-files``: it changes more than one file;
2. ``several-functions``: its changed lines lie in more than one scope of the file, a scope being
   the innermost function holding the line, or the module (class) level outside any function;
3. ``several-hunks``: more than one hunk, all in one scope;
4. ``single-line``: one hunk removing at most one line and adding at most one line;
5. ``single-hunk``: one hunk, more lines.

Changed lines are buggy-file lines (:func:`~truepass.metrics.quality.changed_lines`: an inserted
line counts as the line before it), so a function added right after another counts as a change
of that one.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import TYPE_CHECKING

from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from truepass.metrics.quality import CodeMetrics, changed_lines, enclosing_function, spans_of
from truepass.records import is_correct
from truepass.vocabulary import counted

if TYPE_CHECKING:
    from truepass.records import AttemptRecord


class PatchType(StrEnum):
    """Seed 001's patch types, from the narrowest to the widest."""

    SINGLE_LINE = "single-line"
    SINGLE_HUNK = "single-hunk"
    SEVERAL_HUNKS = "several-hunks"
    SEVERAL_FUNCTIONS = "several-functions"
    SEVERAL_FILES = "several-files"


def patch_type(buggy: dict[str, str], diff: str, metrics: CodeMetrics | None) -> PatchType | None:
    """The type of the patch ``diff`` of the code files ``buggy``; None when it changes nothing
    (or does not parse). ``metrics`` gives the function spans (None: every line is at module
    level, so a patch of one file is never ``several-functions``)."""
    try:
        patch = PatchSet(diff.splitlines(keepends=True))
    except UnidiffParseError:
        return None
    files = [pf for pf in patch if pf.added or pf.removed]
    if not files:
        return None
    if len(files) > 1:
        return PatchType.SEVERAL_FILES
    pf = files[0]
    lines = changed_lines(diff).get(pf.path, set())
    spans = spans_of(metrics, pf.path, buggy.get(pf.path, ""))
    if len({enclosing_function(spans, n) for n in lines}) > 1:
        return PatchType.SEVERAL_FUNCTIONS
    if len(pf) > 1:
        return PatchType.SEVERAL_HUNKS
    if pf.added <= 1 and pf.removed <= 1:
        return PatchType.SINGLE_LINE
    return PatchType.SINGLE_HUNK


def patch_type_metrics(typed: list[tuple[AttemptRecord, PatchType | None]]) -> dict[str, float]:
    """Over counted attempts with a patch type (those that changed code): their number
    (``patch_types_n``), the share of each type (``patch_type[TYPE]``, every type, 0 when
    absent) and the correct rate per type that occurs (``correct_rate[TYPE]``: correct without
    a fake-fix flag, as everywhere). Empty when no attempt has a type."""
    known = [(r, t) for r, t in typed if t is not None and counted(r.verdict)]
    if not known:
        return {}
    n = Counter(t for _, t in known)
    right = Counter(t for r, t in known if is_correct(r))
    out: dict[str, float] = {"patch_types_n": float(len(known))}
    for t in PatchType:
        out[f"patch_type[{t.value}]"] = round(n[t] / len(known), 4)
    for t in PatchType:
        if n[t]:
            out[f"correct_rate[{t.value}]"] = round(right[t] / n[t], 4)
    return out
