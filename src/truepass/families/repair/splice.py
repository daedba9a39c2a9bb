"""Fenced code blocks: which file of the sample each is for, and how it goes into that file
(replacing it whole, or splicing its functions, methods, classes and constants in by name).

Used by :func:`truepass.families.repair.parse.parse_response` once no diff in a response applies.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Literal

from truepass import pyast
from truepass.families.repair import javasplice
from truepass.families.repair.schema import is_test_or_runner_file

BlockKind = Literal["whole-file", "function"]
Edit = tuple[int, int, str]  # replace lines [start, end) (0-based) with text
_DEF = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class _Block:
    lang: str
    info: str
    body: str
    before: str  # the prose between the previous block and this one


class _Reject(Exception):
    """One candidate is unusable; the next one is tried."""


def _target(block: _Block, files: dict[str, str]) -> tuple[str, str, bool]:
    """The file a code block is for, its body, and whether the response named that file."""
    body = block.body
    for tok in re.split(r"[\s:=\"',]+", block.info):
        if (path := _mention(tok, files)) is not None:
            return path, body, True
    first, _, rest = body.partition("\n")
    m = re.fullmatch(r"\s*#\s*(?:(?:file(?:name)?|path)\s*:\s*)?(\S+)\s*", first, re.I)
    if m and (path := _mention(m.group(1), files)) is not None:
        return path, rest, True
    near = [ln for ln in block.before.split("\n") if ln.strip()][-3:]
    if (path := _mention("\n".join(near), files)) is not None:
        return path, body, True
    code = [p for p in files if not is_test_or_runner_file(p)] or list(files)
    if len(code) == 1:
        return code[0], body, False
    py_names, java_names = _def_names(body), javasplice.names(body)

    def shared(p: str) -> int:
        if p.endswith(".java"):
            return len(java_names & javasplice.names(files[p]))
        return len(py_names & _def_names(files[p]))

    score = {p: shared(p) for p in code}
    best = [*sorted(score.values(), reverse=True), 0]
    if best[0] == 0 or best[0] == best[1]:
        raise _Reject("names no file and shares no functions with exactly one file")
    return max(score, key=lambda p: score[p]), body, False


def _mention(text: str, files: dict[str, str]) -> str | None:
    """The known path mentioned last in ``text`` (a base name that no other file has counts)."""
    bases = [PurePosixPath(p).name for p in files]
    found = [
        (m.end(), p)
        for p in files
        for key in {p, PurePosixPath(p).name if bases.count(PurePosixPath(p).name) == 1 else p}
        for m in re.finditer(rf"(?<![\w/.-]){re.escape(key)}(?![\w/-]|\.\w)", text)
    ]
    return max(found)[1] if found else None


def _def_names(text: str) -> set[str]:
    try:
        tree = pyast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError):
        return set()
    return {n.name for n in ast.walk(tree) if isinstance(n, _DEF | ast.ClassDef)}


def _declares_java_class(path: str, body: str) -> bool:
    """A Java block that declares the top-level type of ``path``."""
    stem = PurePosixPath(path).stem
    kinds = r"^\s*(?:public\s+)?(?:final\s+|abstract\s+)*(?:class|interface|enum|record)\s+"
    pattern = kinds + re.escape(stem) + r"\b"
    return path.endswith(".java") and re.search(pattern, body, re.MULTILINE) is not None


def _merge_java(path: str, current: str, body: str, named: bool) -> tuple[str, BlockKind]:
    """A whole file (it declares the file's class with every method the file has), else its
    methods spliced in (``javasplice``); a named block that splices nowhere replaces the file."""
    if _declares_java_class(path, body) and javasplice.whole_file(current, body):
        return body, "whole-file"
    try:
        return javasplice.splice_methods(current, body), "function"
    except javasplice.JavaSpliceError as exc:
        if named or _declares_java_class(path, body):
            return body, "whole-file"
        raise _Reject(f"a Java block for '{path}': {exc}") from exc


def _merge(path: str, current: str, body: str, named: bool) -> tuple[str, BlockKind]:
    """``current`` with the block applied: replaced whole, or with its functions spliced in."""
    if path.endswith(".java"):
        return _merge_java(path, current, body, named)
    if not path.endswith(".py"):
        if not named:
            raise _Reject(f"'{path}' is not Python and the response does not name it")
        return body, "whole-file"
    try:
        try:
            btree = pyast.parse(body)
        except SyntaxError:  # a method copied with its indentation
            body = textwrap.dedent(body)
            btree = pyast.parse(body)
    except (SyntaxError, ValueError) as exc:
        raise _Reject(f"does not parse as Python (line {getattr(exc, 'lineno', '?')})") from exc
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
                raise _Reject(f"method '{name}' is defined in several classes")
            m = methods[name][0]
            edits.append((*_span(m), _indent(seg(st), m.col_offset)))
        elif isinstance(st, _DEF | ast.ClassDef):
            fresh.append(seg(st) + "\n\n")
        elif isinstance(st, ast.Assign | ast.AnnAssign) and set(_bound([st])) & set(consts):
            var = next(iter(set(_bound([st])) & set(consts)))
            edits.append((*_span(consts[var]), seg(st)))
    if not any(a != b for a, b, _ in edits):
        raise _Reject("replaces none of the file's functions")
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
            raise _Reject("the block's functions overlap in the file")
        lines[start:end] = [text]
        last = start
    try:
        pyast.parse(out := "".join(lines))
    except SyntaxError as exc:
        raise _Reject(f"splicing the block gives invalid Python (line {exc.lineno})") from exc
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
        raise _Reject(f"a part of class '{bcls.name}' also changes its class-level code")
    end, col = fcls.end_lineno or 0, fcls.body[0].col_offset
    return [
        (*_span(fm[m.name]), _indent(seg(m), fm[m.name].col_offset))
        if m.name in fm
        else (end, end, "\n" + _indent(seg(m), col))
        for m in bm
    ]
