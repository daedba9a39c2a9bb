"""Fault-localisation accuracy of a patch: where it edits against the suite's fault lines.

Diff-based and language-independent, but for the function level, which needs each file's
function spans: the code's language's (:class:`truepass.metrics.quality.CodeMetrics`).
"""

from __future__ import annotations

from pydantic import BaseModel

from truepass.metrics.quality import (
    PYTHON,
    CodeMetrics,
    changed_lines,
    enclosing_function,
    spans_of,
)


class Localisation(BaseModel):
    """hit@file / hit@function / hit@line of the lines a patch touches (buggy coordinates)."""

    hit_file: bool
    hit_function: bool
    hit_line: bool
    touched: dict[str, list[int]]


def localisation(
    buggy: dict[str, str],
    diff: str,
    fault: dict[str, set[int]],
    metrics: CodeMetrics | None = PYTHON,
) -> Localisation | None:
    """None when the patch touches nothing (no change, or a diff that does not parse); the
    function level reads the spans of the code's language's ``metrics`` (None: lines only)."""
    touched = changed_lines(diff)
    if not touched:
        return None
    hit_file = any(path in fault for path in touched)
    hit_line = any(lines & fault.get(path, set()) for path, lines in touched.items())
    hit_function = False
    for path, lines in touched.items():
        spans = spans_of(metrics, path, buggy.get(path, ""))
        wanted = {enclosing_function(spans, n) for n in fault.get(path, set())} - {None}
        if wanted & {enclosing_function(spans, n) for n in lines}:
            hit_function = True
    return Localisation(
        hit_file=hit_file,
        hit_function=hit_function or hit_line,
        hit_line=hit_line,
        touched={p: sorted(ls) for p, ls in sorted(touched.items())},
    )
