"""Code-quality deltas of a patch: size, complexity (radon), new lint findings (ruff), scope.

Static analysis only: nothing of the candidate runs here (ruff and radon parse, never import;
lizard reads Java as text).

Java files (``.java``): complexity is lizard's cyclomatic complexity summed over the file's
methods, and function spans (for ``inside_fault_function`` and localisation) are lizard's method
spans. Lint is Python-only (ruff): ``new_lint`` counts the touched Python files and is None when
the patch touches none (a Java-only patch). Other files count in size only.
"""

from __future__ import annotations

import ast
import functools
import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field
from radon.complexity import cc_visit
from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from truepass import pyast

LINT_RULES = "E,F,W,B"  # pycodestyle, pyflakes, bugbear: findings that mean something in a patch


class QualityDelta(BaseModel):
    """How the patch changes the code, besides whether it passes."""

    lines_added: int
    lines_removed: int
    hunks: int
    files_touched: int
    complexity_before: int | None = Field(
        description="summed cyclomatic complexity (radon for Python, lizard for Java)"
    )
    complexity_after: int | None
    new_lint: dict[str, int] | None = Field(
        description="ruff rule -> findings added by the patch to Python files; None when it "
        "touches no Python file (ruff is Python-only)"
    )
    inside_fault_function: bool | None = Field(
        description="every changed line lies in a function holding a fault line"
    )


def changed_lines(diff: str) -> dict[str, set[int]]:
    """Buggy-file lines each file's patch removes, or inserts before (1-based)."""
    out: dict[str, set[int]] = {}
    try:
        patch = PatchSet(diff.splitlines(keepends=True))
    except UnidiffParseError:
        return out
    for pf in patch:
        path = pf.path
        lines = out.setdefault(path, set())
        for hunk in pf:
            last_source = hunk.source_start
            for ln in hunk:
                if ln.is_removed:
                    lines.add(ln.source_line_no)
                elif ln.is_added:
                    lines.add(max(last_source, 1))
                if ln.source_line_no is not None:
                    last_source = ln.source_line_no
    return out


def function_spans(source: str, path: str = "") -> list[tuple[str, int, int]]:
    """(qualified name, first line, last line) of every function, innermost last: Python, or
    Java methods and constructors (``Outer.Inner.method``, lizard) when ``path`` is a ``.java``
    file."""
    if path.endswith(".java"):
        return [(name, start, end) for name, start, end, _ in _java_functions(source)]
    try:
        tree = pyast.parse(source)
    except SyntaxError:
        return []
    spans: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    start = min([child.lineno] + [d.lineno for d in child.decorator_list])
                    spans.append((name, start, child.end_lineno or child.lineno))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return spans


def enclosing_function(spans: list[tuple[str, int, int]], line: int) -> str | None:
    """The innermost function containing ``line``, if any."""
    inside = [s for s in spans if s[1] <= line <= s[2]]
    return min(inside, key=lambda s: s[2] - s[1])[0] if inside else None


@functools.lru_cache(maxsize=64)
def _java_functions(source: str) -> tuple[tuple[str, int, int, int], ...]:
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


def _complexity(files: dict[str, str], paths: list[str]) -> int | None:
    total = 0
    for path in paths:
        content = files.get(path)
        if content is not None and path.endswith(".java"):
            total += sum(f[3] for f in _java_functions(content))
        if content is None or not path.endswith(".py"):
            continue
        try:
            with pyast.exclusive():  # radon parses with ast
                blocks = cc_visit(content)
            total += sum(block.complexity for block in blocks)
        except SyntaxError:
            return None
    return total


def _ruff() -> str | None:
    local = Path(sys.executable).with_name("ruff")
    return str(local) if local.exists() else shutil.which("ruff")


def ruff_json(path: str, content: str, rules: str) -> list[dict[str, Any]] | None:
    """ruff's findings of ``rules`` in one file's ``content`` (read from stdin, ``--isolated``:
    no configuration is read), as its JSON output gives them; None when ruff is unavailable or
    failed, or the file is not Python."""
    ruff = _ruff()
    if ruff is None or not path.endswith(".py"):
        return None
    try:
        done = subprocess.run(
            [ruff, "check", "--isolated", "--select", rules, "--output-format", "json",
             "--stdin-filename", path, "-"],
            input=content, capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip
        found = json.loads(done.stdout or "[]")
    except (OSError, subprocess.SubprocessError, json.JSONDecodeError):
        return None
    return [f for f in found if isinstance(f, dict)] if isinstance(found, list) else None


def lint_counts(path: str, content: str) -> Counter[str] | None:
    """ruff findings per rule for one file's content (None when ruff is unavailable)."""
    findings = ruff_json(path, content, LINT_RULES)
    if findings is None:
        return None
    return Counter(str(f.get("code")) for f in findings)


def quality_delta(
    before: dict[str, str], after: dict[str, str], diff: str, fault: dict[str, set[int]]
) -> QualityDelta:
    """Measure the patch ``diff`` that turns code files ``before`` into ``after``."""
    try:
        patch = PatchSet(diff.splitlines(keepends=True))
    except UnidiffParseError:
        patch = PatchSet("")
    touched = sorted({pf.path for pf in patch})
    new_lint: Counter[str] = Counter()
    for path in (p for p in touched if p.endswith(".py")):
        old = lint_counts(path, before.get(path, ""))
        new = lint_counts(path, after.get(path, ""))
        if old is not None and new is not None:
            new_lint.update({rule: n - old[rule] for rule, n in new.items() if n > old[rule]})
    return QualityDelta(
        lines_added=sum(pf.added for pf in patch),
        lines_removed=sum(pf.removed for pf in patch),
        hunks=sum(len(pf) for pf in patch),
        files_touched=len(touched),
        complexity_before=_complexity(before, touched),
        complexity_after=_complexity(after, touched),
        new_lint=(
            dict(sorted(new_lint.items())) if any(p.endswith(".py") for p in touched) else None
        ),
        inside_fault_function=_inside_fault_function(before, changed_lines(diff), fault),
    )


def _inside_fault_function(
    before: dict[str, str], changed: dict[str, set[int]], fault: dict[str, set[int]]
) -> bool | None:
    if not changed or not fault:
        return None
    for path, lines in changed.items():
        spans = function_spans(before.get(path, ""), path)
        fault_funcs = {enclosing_function(spans, n) for n in fault.get(path, set())} - {None}
        if not fault_funcs:
            return False
        if any(enclosing_function(spans, n) not in fault_funcs for n in lines):
            return False
    return True
