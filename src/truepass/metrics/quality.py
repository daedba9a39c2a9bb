"""Code-quality deltas of a patch: size, complexity, new lint findings, scope.

Static analysis only: nothing of the candidate runs here. Size counts every file; complexity,
lint and function spans come from the :class:`CodeMetrics` of the code's language and count its
files only (``code_suffix``). Python's are here (:data:`PYTHON`: radon's cyclomatic complexity,
ruff's findings, the ``ast``'s function spans; ruff and radon parse, never import); a language
of a family gives its own (repair's Java: lizard, ``families/repair/languages/java.py``).
``new_lint`` is None when the language has no linter or the patch touches none of its files.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Protocol

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


Span = tuple[str, int, int]
"""(qualified name, first line, last line) of a function"""


class CodeMetrics(Protocol):
    """What quality and localisation read of one language's code files."""

    code_suffix: str
    """the files it measures"""
    lints: bool
    """whether it has a linter (``new_lint`` is None otherwise)"""

    def function_spans(self, source: str) -> list[Span]:
        """Every function of a file, innermost last ([] when it does not parse)."""
        ...

    def complexity(self, source: str) -> int | None:
        """The file's summed cyclomatic complexity; None when it does not parse."""
        ...

    def lint(self, path: str, content: str) -> Counter[str] | None:
        """Lint findings per rule of one file; None when there is no linter."""
        ...


def function_spans(source: str) -> list[Span]:
    """(qualified name, first line, last line) of every Python function, innermost last."""
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


class PythonMetrics:
    """Python's code metrics: radon's complexity, ruff's findings, the ``ast``'s spans."""

    code_suffix = ".py"
    lints = True

    def function_spans(self, source: str) -> list[Span]:
        return function_spans(source)

    def complexity(self, source: str) -> int | None:
        try:
            with pyast.exclusive():  # radon parses with ast
                return sum(block.complexity for block in cc_visit(source))
        except SyntaxError:
            return None

    def lint(self, path: str, content: str) -> Counter[str] | None:
        return lint_counts(path, content)


PYTHON: CodeMetrics = PythonMetrics()


def spans_of(metrics: CodeMetrics | None, path: str, source: str) -> list[Span]:
    """The function spans of a file, [] where ``metrics`` does not measure it."""
    if metrics is None or not path.endswith(metrics.code_suffix):
        return []
    return metrics.function_spans(source)


def _complexity(metrics: CodeMetrics | None, files: dict[str, str], paths: list[str]) -> int | None:
    if metrics is None:
        return None
    total = 0
    for path in paths:
        content = files.get(path)
        if content is not None and path.endswith(metrics.code_suffix):
            found = metrics.complexity(content)
            if found is None:
                return None
            total += found
    return total


def quality_delta(
    before: dict[str, str],
    after: dict[str, str],
    diff: str,
    fault: dict[str, set[int]],
    metrics: CodeMetrics | None = PYTHON,
) -> QualityDelta:
    """Measure the patch ``diff`` that turns code files ``before`` into ``after``, with the
    code's language's ``metrics`` (None: size only)."""
    try:
        patch = PatchSet(diff.splitlines(keepends=True))
    except UnidiffParseError:
        patch = PatchSet("")
    touched = sorted({pf.path for pf in patch})
    ours = [p for p in touched if metrics is not None and p.endswith(metrics.code_suffix)]
    new_lint: Counter[str] | None = None
    if metrics is not None and metrics.lints and ours:
        new_lint = Counter()
        for path in ours:
            old = metrics.lint(path, before.get(path, ""))
            new = metrics.lint(path, after.get(path, ""))
            if old is not None and new is not None:
                new_lint.update({rule: n - old[rule] for rule, n in new.items() if n > old[rule]})
    changed = changed_lines(diff)
    return QualityDelta(
        lines_added=sum(pf.added for pf in patch),
        lines_removed=sum(pf.removed for pf in patch),
        hunks=sum(len(pf) for pf in patch),
        files_touched=len(touched),
        complexity_before=_complexity(metrics, before, touched),
        complexity_after=_complexity(metrics, after, touched),
        new_lint=None if new_lint is None else dict(sorted(new_lint.items())),
        inside_fault_function=_inside_fault_function(metrics, before, changed, fault),
    )


def _inside_fault_function(
    metrics: CodeMetrics | None,
    before: dict[str, str],
    changed: dict[str, set[int]],
    fault: dict[str, set[int]],
) -> bool | None:
    if not changed or not fault or metrics is None:
        return None
    for path, lines in changed.items():
        spans = spans_of(metrics, path, before.get(path, ""))
        fault_funcs = {enclosing_function(spans, n) for n in fault.get(path, set())} - {None}
        if not fault_funcs:
            return False
        if any(enclosing_function(spans, n) not in fault_funcs for n in lines):
            return False
    return True
