"""Fault-localisation accuracy of a patch: where it edits against the suite's fault lines.

Diff-based and language-independent, but for the function level, which needs each file's
function spans: Python's, or Java's methods (lizard) for ``.java`` files
(:func:`truepass.metrics.quality.function_spans`).
"""

from __future__ import annotations

from pydantic import BaseModel

from truepass.metrics.quality import changed_lines, enclosing_function, function_spans


class Localisation(BaseModel):
    """hit@file / hit@function / hit@line of the lines a patch touches (buggy coordinates)."""

    hit_file: bool
    hit_function: bool
    hit_line: bool
    touched: dict[str, list[int]]


def localisation(
    buggy: dict[str, str], diff: str, fault: dict[str, set[int]]
) -> Localisation | None:
    """None when the patch touches nothing (no change, or a diff that does not parse)."""
    touched = changed_lines(diff)
    if not touched:
        return None
    hit_file = any(path in fault for path in touched)
    hit_line = any(lines & fault.get(path, set()) for path, lines in touched.items())
    hit_function = False
    for path, lines in touched.items():
        spans = function_spans(buggy.get(path, ""), path)
        wanted = {enclosing_function(spans, n) for n in fault.get(path, set())} - {None}
        if wanted & {enclosing_function(spans, n) for n in lines}:
            hit_function = True
    return Localisation(
        hit_file=hit_file,
        hit_function=hit_function or hit_line,
        hit_line=hit_line,
        touched={p: sorted(ls) for p, ls in sorted(touched.items())},
    )
