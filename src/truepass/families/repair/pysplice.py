"""Python code blocks of an answer spliced into a file: replaced whole, or with its functions,
methods, classes and constants put in by name (:meth:`Language.merge_block
<truepass.families.repair.languages.base.Language.merge_block>` of Python)."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable

from truepass import pyast

Edit = tuple[int, int, str]  # replace lines [start, end) (0-based) with text
_DEF = ast.FunctionDef | ast.AsyncFunctionDef


class PySpliceError(ValueError):
    """The block cannot go into the file; the message says why."""


def names(text: str) -> set[str]:
    """The names of the functions and classes a Python text (a file or a block) defines."""
    try:
        tree = pyast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError):
        return set()
    return {n.name for n in ast.walk(tree) if isinstance(n, _DEF | ast.ClassDef)}


def merge(current: str, body: str, named: bool) -> tuple[str, str]:
    """``current`` with the block applied: (the text, ``whole-file`` or ``function``)."""
    try:
        try:
            btree = pyast.parse(body)
        except SyntaxError:  # a method copied with its indentation
            body = textwrap.dedent(body)
            btree = pyast.parse(body)
    except (SyntaxError, ValueError) as exc:
        raise PySpliceError(
            f"does not parse as Python (line {getattr(exc, 'lineno', '?')})"
        ) from exc
    try:
        ftree = pyast.parse(current)
    except (SyntaxError, ValueError):
        return body, "whole-file"  # the buggy file itself does not parse: nothing to splice into
    fdefs, fmod = _top(ftree)
    bdefs, bmod = _top(btree)
    if fdefs <= bdefs and fmod <= bmod and (bdefs & fdefs or named or not fdefs) and btree.body:
        return body, "whole-file"
    return _splice(current, ftree, body, btree), "function"


def _top(tree: ast.Module) -> tuple[set[str], set[str]]:
    """Top-level def/class names (and ``Class.method``), and names bound by other statements."""
    defs = {n.name for n in tree.body if isinstance(n, _DEF | ast.ClassDef)}
    defs |= {
        f"{c.name}.{m.name}"
        for c in tree.body
        if isinstance(c, ast.ClassDef)
        for m in c.body
        if isinstance(m, _DEF)
    }
    return defs, set(_bound(tree.body))


def _bound(stmts: list[ast.stmt]) -> dict[str, ast.stmt]:
    """Names bound by imports and plain assignments, each with its statement."""
    out: dict[str, ast.stmt] = {}
    for st in stmts:
        if isinstance(st, ast.Import | ast.ImportFrom):
            out.update({(a.asname or a.name).split(".")[0]: st for a in st.names})
        elif isinstance(st, ast.Assign | ast.AnnAssign):
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            out.update({t.id: st for t in targets if isinstance(t, ast.Name)})
    return out


def _start(node: ast.stmt) -> int:
    return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])


def _span(node: ast.stmt) -> tuple[int, int]:
    return _start(node) - 1, node.end_lineno or node.lineno


def _indent(seg: str, col: int) -> str:
    pad = " " * col
    return "".join(pad + ln if ln.strip() else ln for ln in textwrap.dedent(seg).splitlines(True))


def _splice(current: str, ftree: ast.Module, body: str, btree: ast.Module) -> str:
    """Replace the file's same-named top-level functions, classes, methods and constants; add
    new functions before the first one replaced, and new imports after the file's imports."""
    blines = body.splitlines(keepends=True)

    def seg(node: ast.stmt) -> str:
        return "".join(blines[_start(node) - 1 : node.end_lineno]).rstrip("\n") + "\n"

    top = {n.name: n for n in ftree.body if isinstance(n, _DEF | ast.ClassDef)}
    bound = _bound(ftree.body).items()
    consts = {k: v for k, v in bound if isinstance(v, ast.Assign | ast.AnnAssign)}
    methods: dict[str, list[ast.stmt]] = {}
    for c in (c for c in ftree.body if isinstance(c, ast.ClassDef)):
        for m in (m for m in c.body if isinstance(m, _DEF)):
            methods.setdefault(m.name, []).append(m)
    edits: list[Edit] = []
    fresh, imports = [], []
    for st in btree.body:
        name = getattr(st, "name", None)
        if isinstance(st, ast.Import | ast.ImportFrom):
            imports += [seg(st)] if seg(st).strip() not in current else []
        elif isinstance(st, ast.ClassDef) and isinstance(top.get(st.name), ast.ClassDef):
            edits += _class_edits(top[st.name], st, seg, current)  # type: ignore[arg-type]
        elif name in top:
            edits.append((*_span(top[name]), seg(st)))
        elif isinstance(st, _DEF) and name in methods:
            if len(methods[name]) > 1:
                raise PySpliceError(f"method '{name}' is defined in several classes")
            m = methods[name][0]
            edits.append((*_span(m), _indent(seg(st), m.col_offset)))
        elif isinstance(st, _DEF | ast.ClassDef):
            fresh.append(seg(st) + "\n\n")
        elif isinstance(st, ast.Assign | ast.AnnAssign) and set(_bound([st])) & set(consts):
            var = next(iter(set(_bound([st])) & set(consts)))
            edits.append((*_span(consts[var]), seg(st)))
    if not any(a != b for a, b, _ in edits):
        raise PySpliceError("replaces none of the file's functions")
    if fresh:  # before the top-level statement holding the first change
        first = min(a for a, b, _ in edits if a != b) + 1
        at = min(_start(s) for s in ftree.body if (s.end_lineno or 0) >= first) - 1
        edits.append((at, at, "".join(fresh)))
    if imports:
        stmts = [s for s in ftree.body if isinstance(s, ast.Import | ast.ImportFrom)]
        at = max((s.end_lineno or 0 for s in stmts), default=0)
        edits.append((at, at, "".join(imports)))
    lines = current.splitlines(keepends=True)
    last = len(lines) + 1
    for start, end, text in sorted(edits, reverse=True):
        if end > last:
            raise PySpliceError("the block's functions overlap in the file")
        lines[start:end] = [text]
        last = start
    try:
        pyast.parse(out := "".join(lines))
    except SyntaxError as exc:
        raise PySpliceError(f"splicing the block gives invalid Python (line {exc.lineno})") from exc
    return out


def _class_edits(
    fcls: ast.ClassDef, bcls: ast.ClassDef, seg: Callable[[ast.stmt], str], current: str
) -> list[Edit]:
    """Edits for a class block: the whole class when it has every method, else per method."""
    fm = {m.name: m for m in fcls.body if isinstance(m, _DEF)}
    bm = [m for m in bcls.body if isinstance(m, _DEF)]
    if set(fm) <= {m.name for m in bm}:
        return [(*_span(fcls), seg(bcls))]
    rest = [s for s in bcls.body[1 if ast.get_docstring(bcls) else 0 :] if s not in bm]
    if any(seg(s).strip() not in current for s in rest):
        raise PySpliceError(f"a part of class '{bcls.name}' also changes its class-level code")
    end, col = fcls.end_lineno or 0, fcls.body[0].col_offset
    return [
        (*_span(fm[m.name]), _indent(seg(m), fm[m.name].col_offset))
        if m.name in fm
        else (end, end, "\n" + _indent(seg(m), col))
        for m in bm
    ]
