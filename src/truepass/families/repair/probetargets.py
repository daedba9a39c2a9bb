"""What the differential check watches: the functions and methods a reference fix changes
(docs/differential.md), read from the buggy and the fixed code with ``ast``, in the parent.

A *target* is a function or method (its outermost ``def``, by qualified name: ``f``,
``Class.method``) that the buggy code and the fixed code both define and that either holds a line
the fix removes or adds, or reads a module- or class-level name whose assignment the fix changes
(a constant table fixed at module level changes what every function reading it does).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from truepass import pyast
from truepass.families.repair.schema import is_test_or_runner_file
from truepass.families.repair.selection import MODULE, layout
from truepass.patches.apply import changed_lines

MAX_SEEDS = 20
MAX_TARGETS = 12


@dataclass(frozen=True)
class Target:
    """A function or method the reference fix changes."""

    path: str
    qual: str
    line: int  # its ``def`` line in the fixed file
    seeds: tuple[object, ...] = ()  # its constants, in the fixed and the buggy code

    @property
    def name(self) -> str:
        return f"{self.path}::{self.qual}"


def find_targets(before: dict[str, str], fixed: dict[str, str]) -> list[Target]:
    """The targets of a fix turning ``before`` into ``fixed`` (relative path -> text), at most
    :data:`MAX_TARGETS`; test and runner files are never read."""
    out: list[Target] = []
    for path in sorted(set(before) & set(fixed)):
        if before[path] == fixed[path] or not path.endswith(".py") or is_test_or_runner_file(path):
            continue
        old, new = layout(before[path]), layout(fixed[path])
        if old is None or new is None:
            continue
        names: set[str] = set()
        module_lines: list[tuple[str, int]] = []
        for side, lay, lines in (
            ("before", old, changed_lines(before[path], fixed[path])),
            ("fixed", new, changed_lines(fixed[path], before[path])),
        ):
            for line in lines:
                owner = lay.owner(line)
                if owner == MODULE:
                    module_lines.append((side, line))
                elif owner is not None:
                    names.add(owner)
        if module_lines:
            assigned = _assigned(before[path], [n for s, n in module_lines if s == "before"])
            assigned |= _assigned(fixed[path], [n for s, n in module_lines if s == "fixed"])
            names |= _readers(fixed[path], assigned) & _readers(before[path], assigned)
        starts = {name: start for start, _, name in new.spans}
        for name in sorted(names & old.functions & new.functions):
            seeds = constants(fixed[path], name) + constants(before[path], name)
            line = _def_line(fixed[path], starts[name])
            out.append(Target(path, name, line, tuple(dict.fromkeys(seeds))[:MAX_SEEDS]))
    return out[:MAX_TARGETS]


def _def_line(source: str, start: int) -> int:
    lines = source.splitlines()
    for n in range(start, min(len(lines), start + 50) + 1):
        if lines[n - 1].lstrip().startswith(("def ", "async def ")):
            return n
    return start


def _assigned(source: str, lines: list[int]) -> set[str]:
    """Names bound by module- or class-level assignments spanning any of ``lines``."""
    if not lines:
        return set()
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body)
                continue
            if not isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                continue
            end = node.end_lineno or node.lineno
            if any(node.lineno <= n <= end for n in lines):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    found.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name))

    visit(pyast.parse(source).body)
    return found


def _readers(source: str, names: set[str]) -> set[str]:
    """Qualified names of functions whose code reads one of ``names`` (``NAME`` or
    ``something.NAME``)."""
    if not names:
        return set()
    found: set[str] = set()

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for sub in ast.walk(node):
                    if (isinstance(sub, ast.Name) and sub.id in names) or (
                        isinstance(sub, ast.Attribute) and sub.attr in names
                    ):
                        found.add(prefix + node.name)
                        break

    visit(pyast.parse(source).body, "")
    return found


def constants(source: str, qual: str) -> list[object]:
    """Numbers and short strings written in function ``qual`` of ``source`` (docstrings and
    booleans aside): values next to which behaviour tends to change."""
    node: ast.AST | None = pyast.parse(source)
    for part in qual.split("."):
        body = getattr(node, "body", [])
        kinds = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        node = next((n for n in body if isinstance(n, kinds) and n.name == part), None)
        if node is None:
            return []
    docs = {id(n.body[0].value) for n in ast.walk(node) if _has_docstring(n)}  # type: ignore[attr-defined]
    out: list[object] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and id(sub) not in docs:
            v = sub.value
            if type(v) in (int, float) or (type(v) is str and 0 < len(v) <= 20):
                out.append(v)
    return out


def _has_docstring(node: ast.AST) -> bool:
    body = getattr(node, "body", None)
    return (
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and bool(body)
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    )


CANDIDATE = "__truepass_candidate__"
"""Global of the reference's shadow module naming the candidate's module (see below)."""


def shadow_source(fixed: str, before: str, targets: list[Target]) -> str:
    """The reference's version of a file as the probe loads it beside the candidate's: every
    top-level class that the fix leaves alone and that holds no target is taken from the
    candidate's module (``NAME = __truepass_candidate__.NAME``) instead of being defined again,
    so that the reference raises, catches and checks the same exception, enum and record
    classes the tests and the candidate use. Line numbers are kept."""
    lines = fixed.splitlines(keepends=True)
    changed = set(changed_lines(fixed, before))
    owners = {t.qual.split(".")[0] for t in targets}
    for node in reversed(pyast.parse(fixed).body):
        if not isinstance(node, ast.ClassDef) or node.name in owners:
            continue
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        end = node.end_lineno or node.lineno
        if any(start <= n <= end for n in changed):
            continue
        lines[start - 1 : end] = [f"{node.name} = {CANDIDATE}.{node.name}\n"] + ["\n"] * (
            end - start
        )
    return "".join(lines)
