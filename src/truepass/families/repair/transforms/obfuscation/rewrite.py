"""Apply a :class:`Renaming` to source files, and to prose that mentions their code."""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

from truepass import pyast
from truepass.families.repair.transforms.obfuscation.facts import (
    STRING_LISTS,
    TYPEVAR_LIKE,
    ObfuscationError,
    Renaming,
    _absolute,
    _Facts,
    _is_own,
    _last_name,
    _module_ref,
    _resolve_callee,
    _Unit,
    _unit,
)


def rewrite_source(path: str, text: str, renaming: Renaming) -> str:
    """``text`` (the file at ``path``) renamed by ``renaming``, without docstrings or comments,
    laid out by ``ast.unparse``. Raises :class:`ObfuscationError` if it does not parse or if the
    result does not parse back to the same tree."""
    unit = _unit(path, text, False, renaming.facts)
    tree = _Rewriter(renaming, unit).visit(unit.tree)
    out = ast.unparse(tree)
    try:
        again = pyast.parse(out)
    except SyntaxError as exc:  # pragma: no cover - ast.unparse bug
        raise ObfuscationError(f"{path}: the rewritten source does not parse: {exc}") from exc
    if ast.dump(again) != ast.dump(tree):
        raise ObfuscationError(f"{path}: the rewritten source does not round-trip")
    return out + "\n" if out else ""


def rewrite_files(files: dict[str, str], renaming: Renaming) -> dict[str, str]:
    """Every ``.py`` file of ``files`` rewritten and moved to its new path; other files as is."""
    out: dict[str, str] = {}
    for path, text in files.items():
        if path.endswith(".py"):
            out[renaming.paths.get(path, path)] = rewrite_source(path, text, renaming)
        else:
            out[path] = text
    return out


def rename_in_text(text: str, renaming: Renaming) -> str:
    """Rename identifiers that look like code in prose: inside backticks, or written with an
    underscore, in camelCase, or as a call ``name(``; file names of renamed modules too. Plain
    words stay (a function ``clamp`` does not turn "Clamp a value" into nonsense)."""
    files = {PurePosixPath(p).name: PurePosixPath(n).name for p, n in renaming.paths.items()}

    def word(m: re.Match[str], quoted: bool) -> str:
        tok = m.group(0)
        if tok in files:
            return files[tok]
        new = renaming.names.get(tok)
        tail = m.string[m.end() : m.end() + 1]
        code_like = "_" in tok.strip("_") or re.search("[a-z][A-Z]", tok) or tail == "("
        return new if new and (quoted or code_like) else tok

    token = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.py\b)?")
    parts = re.split(r"(`+[^`]+`+)", text)
    return "".join(
        token.sub(lambda m, q=(i % 2 == 1): word(m, q), part) for i, part in enumerate(parts)
    )


class _Rewriter(ast.NodeTransformer):
    """Second pass: apply the plan to one file."""

    def __init__(self, renaming: Renaming, unit: _Unit) -> None:
        self.r, self.u, self.f = renaming, unit, renaming.facts
        only = renaming.attribute_only
        self.names = {k: v for k, v in renaming.names.items() if k not in only}
        self.attrs = {k: v for k, v in renaming.names.items() if k in self.f.class_attrs}
        self.in_class_body = False
        self.override: dict[str, str] = {}
        self.alias_imports: set[str] = set()
        local = _locally_bound(unit, self.f)
        for name in unit.bare:  # `import clamp`, `from . import core`: renamed with the module
            new = renaming.modules.get(unit.modules[name])
            if new and name in local:  # the name is also bound otherwise: bind the module as
                self.alias_imports.add(name)  # that name's new name
            elif new:
                self.override[name] = new.rpartition(".")[2]

    def _name(self, ident: str) -> str:
        return self.override.get(ident) or self.names.get(ident, ident)

    def _module(self, dotted: str) -> str:
        return self.r.modules.get(dotted, dotted)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        for name in ("body", "orelse", "finalbody"):
            stmts = getattr(node, name, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                kept = [s for s in stmts if not _is_bare_string(s)]
                setattr(node, name, kept or [ast.Pass()])
        return node

    def visit_Name(self, node: ast.Name) -> ast.Name:
        store = isinstance(node.ctx, ast.Store | ast.Del)
        node.id = (
            self.attrs.get(node.id, node.id)
            if store and self.in_class_body
            else self._name(node.id)
        )
        return node

    def _binding(self, name: str) -> str:
        return self.attrs.get(name, name) if self.in_class_body else self.names.get(name, name)

    def _scope(self, node: ast.AST, class_body: bool) -> ast.AST:
        saved, self.in_class_body = self.in_class_body, class_body
        try:
            return self.generic_visit(node)
        finally:
            self.in_class_body = saved

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self.names.get(node.arg, node.arg)
        node.annotation = self._annotation(node.annotation)
        return self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        node.name = self._binding(node.name)
        node.returns = self._annotation(node.returns)
        return self._scope(node, False)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.name = self._binding(node.name)
        return self._scope(node, True)

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return self._scope(node, False)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        node.annotation = self._annotation(node.annotation)
        return self.generic_visit(node)

    def _annotation(self, node: ast.expr | None) -> ast.expr | None:
        """Forward references written as strings are code: rename inside them."""
        if node is None:
            return None
        for c in ast.walk(node):
            if isinstance(c, ast.Constant) and isinstance(c.value, str):
                try:
                    expr = pyast.parse_expression(c.value)
                except SyntaxError:
                    continue
                c.value = ast.unparse(_Rewriter(self.r, self.u).visit(expr))
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        module = _module_ref(node.value, self.u, self.f)
        if module is not None:
            dotted = f"{module}.{node.attr}"
            if dotted in self.r.modules:
                node.attr = self._module(dotted).rpartition(".")[2]
            elif not _is_own(self.f, dotted):
                node.attr = self.names.get(node.attr, node.attr)
        else:
            node.attr = self.attrs.get(node.attr, node.attr)
        return self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> ast.AST:
        for a in node.names:
            if not _is_own(self.f, a.name):
                continue
            new = self._module(a.name)
            if a.asname:
                a.asname = self.names.get(a.asname, a.asname)
            elif a.name in self.alias_imports:
                a.asname = self.names.get(a.name, a.name)
            a.name = new
        return node

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST:
        base = _absolute(self.u, node.module, node.level)
        if not (node.level or _is_own(self.f, base)):
            return node
        if node.module:
            new_base = self._module(base)
            keep = len(base) - len(node.module)
            node.module = new_base[keep:] if node.level else new_base
        for a in node.names:
            sub = f"{base}.{a.name}".strip(".")
            if a.asname:
                a.asname = self.names.get(a.asname, a.asname)
            elif a.name in self.alias_imports:
                a.asname = self.names.get(a.name, a.name)
            if sub in self.r.modules:
                a.name = self._module(sub).rpartition(".")[2]
            else:
                a.name = self.names.get(a.name, a.name)
        return node

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> ast.AST:
        node.names = [self.names.get(n, n) for n in node.names]
        return node

    visit_Nonlocal = visit_Global  # type: ignore[assignment]

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
        node.name = self.names.get(node.name, node.name) if node.name else None
        return self.generic_visit(node)

    def visit_MatchAs(self, node: ast.MatchAs) -> ast.AST:
        node.name = self.names.get(node.name, node.name) if node.name else None
        return self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> ast.AST:
        node.name = self.names.get(node.name, node.name) if node.name else None
        return node

    def visit_MatchMapping(self, node: ast.MatchMapping) -> ast.AST:
        node.rest = self.names.get(node.rest, node.rest) if node.rest else None
        return self.generic_visit(node)

    def visit_MatchClass(self, node: ast.MatchClass) -> ast.AST:
        node.kwd_attrs = [self.attrs.get(a, a) for a in node.kwd_attrs]
        return self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        targets = {t.id for t in node.targets if isinstance(t, ast.Name)}
        if "__all__" in targets:
            self._rename_strings(node.value, names=self.names)
        elif targets & STRING_LISTS:
            self._rename_strings(node.value, names=self.attrs)
        value = node.value
        if (
            isinstance(value, ast.Call)
            and _last_name(value.func) in TYPEVAR_LIKE
            and value.args
            and isinstance(value.args[0], ast.Constant)
            and value.args[0].value in targets
        ):
            value.args[0].value = self.names.get(value.args[0].value, value.args[0].value)
        return self.generic_visit(node)

    def _rename_strings(
        self, node: ast.AST, sep: str | None = None, names: dict[str, str] | None = None
    ) -> None:
        names = self.names if names is None else names
        for c in ast.walk(node):
            if isinstance(c, ast.Constant) and isinstance(c.value, str):
                parts = c.value.split(sep) if sep else [c.value]
                c.value = (sep or "").join(
                    p.replace(p.strip(), names.get(p.strip(), p.strip())) for p in parts
                )

    def visit_Call(self, node: ast.Call) -> ast.AST:
        kind, name = _resolve_callee(node.func, self.u, self.f, self.r.kept)
        if kind == "own":
            params = self.f.callables[name].params
            for kw in node.keywords:
                if kw.arg in params:
                    kw.arg = self.r.names.get(kw.arg, kw.arg)
        callee = _last_name(node.func)
        if callee == "parametrize":
            argnames = node.args[0] if node.args else None
            for kw in node.keywords:
                argnames = kw.value if kw.arg == "argnames" else argnames
            if argnames is not None:
                self._rename_strings(argnames, ",")
        elif callee == "usefixtures":
            for a in node.args:
                self._rename_strings(a)
        return self.generic_visit(node)


def _is_bare_string(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _locally_bound(unit: _Unit, facts: _Facts) -> set[str]:
    """Names a file binds other than by importing one of the sample's modules."""
    out: set[str] = set()
    for node in ast.walk(unit.tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(unit, node.module, node.level)
            out.update(
                a.asname or a.name
                for a in node.names
                if a.asname or f"{base}.{a.name}".strip(".") not in facts.own_modules
            )
        elif isinstance(node, ast.Import):
            out.update(
                a.asname or a.name.split(".")[0]
                for a in node.names
                if a.asname or not _is_own(facts, a.name)
            )
    return out
