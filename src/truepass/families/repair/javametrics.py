"""Java's code metrics for quality deltas and localisation: lizard reads Java as text and gives
each method's and constructor's span (``Outer.Inner.method``) and cyclomatic complexity; Java has
no linter here (``new_lint`` stays None)."""

from __future__ import annotations

import functools
from collections import Counter

from truepass.metrics.quality import Span


@functools.lru_cache(maxsize=64)
def _functions(source: str) -> tuple[tuple[str, int, int, int], ...]:
    """(qualified name, first line, last line, cyclomatic complexity) of each Java method."""
    from lizard import analyze_file

    try:
        info = analyze_file.analyze_source_code("Source.java", source)
    except (RecursionError, ValueError, IndexError):
        return ()
    out = []
    for fn in info.function_list:
        name = fn.long_name.split("(", 1)[0].strip().replace("::", ".")
        out.append((name, fn.start_line, fn.end_line, fn.cyclomatic_complexity))
    return tuple(sorted(out, key=lambda f: (f[1], -f[2])))


class JavaMetrics:
    code_suffix = ".java"
    lints = False

    def function_spans(self, source: str) -> list[Span]:
        return [(name, start, end) for name, start, end, _ in _functions(source)]

    def complexity(self, source: str) -> int | None:
        return sum(f[3] for f in _functions(source))

    def lint(self, path: str, content: str) -> Counter[str] | None:
        return None


JAVA = JavaMetrics()
