"""A Python file parsed once for text-level mutation: its AST, parent links, byte offsets of its
lines and the expressions each line holds, so that edits land on exact byte offsets and the rest
of the file keeps its formatting. Used by the repair tool's operators (:mod:`.mutations`,
:mod:`.templates`) and by ``harden``'s mutants of canonical solutions. Nothing here executes
code; it only parses it.
"""

from __future__ import annotations

import ast
import re

from truepass import pyast

Edit = tuple[int, int, str]  # byte start, byte end, replacement text

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


class SourceText:
    """A file's text as bytes, the byte offset of each line and its newline: what text-level
    edits of any language need (``SourceFile`` for Python, ``JavaSource`` for Java)."""

    def __init__(self, path: str, text: str) -> None:
        self.path, self.text = path, text
        self.data = text.encode("utf-8")
        self.nl = "\r\n" if "\r\n" in text else "\n"
        self.starts = [0]
        for ln in self.data.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(ln))

    def line_text(self, lineno: int) -> str:
        return self.data[self.starts[lineno - 1] : self.starts[lineno]].decode("utf-8")

    def apply(self, edits: tuple[Edit, ...]) -> str:
        """The file's text with ``edits`` (non-overlapping) applied."""
        out = self.data
        for a, b, text in sorted(edits, reverse=True):
            out = out[:a] + text.encode("utf-8") + out[b:]
        return out.decode("utf-8")


class SourceFile(SourceText):
    """A Python file parsed once: its AST, parent links and the byte offset of each line."""

    def __init__(self, path: str, text: str) -> None:
        super().__init__(path, text)
        self.tree = pyast.parse(text, path)
        self.parent: dict[ast.AST, ast.AST] = {}
        self._by_stmt: dict[int, list[ast.expr]] = {}
        self._by_line: dict[int, list[ast.expr]] = {}
        self._stmts: dict[int, list[ast.stmt]] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
            if isinstance(node, ast.stmt):
                self._stmts.setdefault(node.lineno, []).append(node)
                for root in header_roots(node):
                    for sub in ast.walk(root):
                        if isinstance(sub, ast.expr):
                            self._by_stmt.setdefault(node.lineno, []).append(sub)
                            self._by_line.setdefault(sub.lineno, []).append(sub)

    def offset(self, lineno: int, col: int) -> int:
        return self.starts[lineno - 1] + col

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (
            self.offset(node.lineno, node.col_offset),  # type: ignore[attr-defined]
            self.offset(node.end_lineno, node.end_col_offset),  # type: ignore[attr-defined]
        )

    def seg(self, node: ast.AST) -> str:
        a, b = self.span(node)
        return self.data[a:b].decode("utf-8")

    def stmts_at(self, line: int) -> list[ast.stmt]:
        return list(self._stmts.get(line, []))

    def nodes_at(self, line: int) -> list[ast.expr]:
        """Expressions of ``line``: the headers of statements starting there, plus any header
        expression that starts on it (for lines in the middle of a long statement)."""
        seen: dict[int, ast.expr] = {}
        for node in self._by_stmt.get(line, []) + self._by_line.get(line, []):
            seen.setdefault(id(node), node)
        return sorted(seen.values(), key=lambda n: (n.lineno, n.col_offset))

    def gap_token(self, left: ast.AST, right: ast.AST, pattern: re.Pattern[str]) -> Edit | None:
        """The operator token between two operands (skipping parentheses and comments)."""
        a, b = self.span(left)[1], self.span(right)[0]
        gap = self.data[a:b].decode("utf-8")
        clean = re.sub(r"#[^\r\n]*", lambda m: " " * len(m.group()), gap)
        m = pattern.search(clean)
        if m is None:
            return None
        return a + len(gap[: m.start()].encode()), a + len(gap[: m.end()].encode()), m.group()

    def function_of(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        while node in self.parent:
            node = self.parent[node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                return node
        return None

    def in_loop(self, node: ast.AST) -> bool:
        while node in self.parent:
            node = self.parent[node]
            if isinstance(node, _FUNCS):
                return False
            if isinstance(node, _LOOPS):
                return True
        return False

    def owns_lines(self, stmt: ast.stmt) -> bool:
        """True when ``stmt`` stands alone on its lines (so text can go before or around it)."""
        first, last = self.line_text(stmt.lineno), self.line_text(stmt.end_lineno or stmt.lineno)
        head = first.encode()[: stmt.col_offset].decode("utf-8", errors="replace")
        tail = last.encode()[stmt.end_col_offset or 0 :].decode("utf-8", errors="replace")
        return (
            not head.strip()
            and (not tail.strip() or tail.strip().startswith("#"))
            and not first.lstrip().startswith(("elif", "else"))
        )

    def indent(self, stmt: ast.stmt) -> tuple[str, str]:
        """(indentation of ``stmt``, one more level in the file's style)."""
        line = self.line_text(stmt.lineno)
        ind = line[: len(line) - len(line.lstrip(" \t"))]
        return ind, "\t" if ind.startswith("\t") else "    "


def header_roots(stmt: ast.stmt) -> list[ast.AST]:
    """The parts of a statement that are its own (not its body): test, target, value, ..."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
        return [*stmt.args.defaults, *(d for d in stmt.args.kw_defaults if d is not None)]
    if isinstance(stmt, ast.ClassDef):
        return []
    if isinstance(stmt, ast.AnnAssign):
        return [stmt.target, stmt.value] if stmt.value is not None else []
    return [c for c in ast.iter_child_nodes(stmt) if isinstance(c, ast.expr | ast.withitem)]


def function_params(func: ast.AST | None) -> list[str]:
    """Parameter names of a function (none for module level)."""
    if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
        return []
    a = func.args
    every = [*a.posonlyargs, *a.args, a.vararg, *a.kwonlyargs, a.kwarg]
    return [arg.arg for arg in every if arg is not None]


def function_locals(func: ast.AST) -> list[str]:
    """Parameters and assigned names of a function, in order of first appearance."""
    names = dict.fromkeys(function_params(func))
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.setdefault(node.id)
    return list(names)
