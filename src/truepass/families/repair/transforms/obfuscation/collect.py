"""First analysis pass: what each file of a sample binds, imports, reflects on and calls."""

from __future__ import annotations

import ast

from truepass.families.repair.transforms.obfuscation.facts import (
    _IDENT,
    ENUM_BASES,
    KEEP_ALWAYS,
    REFLECTIVE,
    STRING_LISTS,
    _absolute,
    _Callable,
    _Class,
    _Facts,
    _is_own,
    _last_name,
    _module_ref,
    _Unit,
)


def _decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> set[str]:
    called = (d.func if isinstance(d, ast.Call) else d for d in node.decorator_list)
    return {n for n in map(_last_name, called) if n is not None}


def _base_names(node: ast.ClassDef) -> list[str]:
    unsubscripted = (b.value if isinstance(b, ast.Subscript) else b for b in node.bases)
    return [n for n in map(_last_name, unsubscripted) if n is not None]


def _params(args: ast.arguments, skip_first: bool) -> _Callable:
    named = [*args.posonlyargs, *args.args][1 if skip_first else 0 :]
    return _Callable({a.arg for a in [*named, *args.kwonlyargs]}, args.kwarg is not None)


class _Collector(ast.NodeVisitor):
    """First pass: what the sample binds, imports, reflects on and calls."""

    def __init__(self, facts: _Facts, unit: _Unit) -> None:
        self.f, self.u = facts, unit
        self.class_stack: list[ast.ClassDef] = []
        self.receivers: set[str] = set(KEEP_ALWAYS)
        self._body_level = False
        self.renamed_strings: set[int] = set()

    def generic_visit(self, node: ast.AST) -> None:
        for name in ("id", "attr", "arg", "name"):
            value = getattr(node, name, None)
            if isinstance(value, str):
                self.f.seen.add(value)
        super().generic_visit(node)

    def _bind(self, name: str, kind: str = "var", *, attribute: bool = False) -> None:
        (self.f.class_attrs if attribute else self.f.bound).add(name)
        if attribute and self.class_stack:
            self.f.classes[self.class_stack[-1].name].attrs.add(name)
        rank = {"var": 0, "function": 1, "class": 2}
        if rank[kind] >= rank[self.f.kinds.get(name, "var")]:
            self.f.kinds[name] = kind

    def _in_class_body(self) -> ast.ClassDef | None:
        return self.class_stack[-1] if self.class_stack and self._body_level else None

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if _is_own(self.f, a.name):
                if a.asname:
                    self._bind(a.asname)
            else:
                self.f.ext_modules.add((a.name, ()))
                self.f.ext_bound.add(a.asname or a.name.split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = _absolute(self.u, node.module, node.level)
        if node.level or _is_own(self.f, base):
            for a in node.names:
                if f"{base}.{a.name}".strip(".") in self.f.own_modules:
                    if a.asname:
                        self._bind(a.asname)
                elif a.name != "*":
                    self._bind(a.asname or a.name)
            return
        self.f.ext_modules.add((base, tuple(a.name for a in node.names)))
        self.f.ext_bound.update(a.asname or a.name for a in node.names if a.name != "*")
        if any(a.name == "*" for a in node.names):
            self.f.keep.setdefault("*", f"star import from {base}")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._bind(node.name, "class", attribute=self._in_class_body() is not None)
        info = self.f.classes.setdefault(node.name, _Class())
        info.bases += _base_names(node)
        info.dataclass |= "dataclass" in _decorator_names(node)
        enum_like = bool(ENUM_BASES & set(info.bases))
        for stmt in node.body:
            targets = []
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                targets = [stmt.target.id]
                info.fields.add(stmt.target.id)
            elif isinstance(stmt, ast.Assign):
                targets = [t.id for t in stmt.targets if isinstance(t, ast.Name)]
            for t in targets:
                if enum_like:
                    self.f.keep.setdefault(t, "Enum member or TypedDict key (its name is data)")
            if isinstance(stmt, ast.Assign) and "__slots__" in targets:
                for c in ast.walk(stmt.value):
                    if isinstance(c, ast.Constant) and isinstance(c.value, str):
                        self.f.class_attrs.add(c.value)
        for d in node.decorator_list:
            self.visit(d)
        for b in [*node.bases, *node.keywords]:
            self.visit(b)
        for kw in node.keywords:  # reach __init_subclass__ by name
            self.f.keep.setdefault(kw.arg or "", "class keyword argument")
        self.class_stack.append(node)
        saved, self._body_level = self._body_level, True
        for stmt in node.body:
            self.visit(stmt)
        self._body_level = saved
        self.class_stack.pop()
        self.f.seen.add(node.name)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        cls = self._in_class_body()
        decorators = _decorator_names(node)
        is_method = cls is not None and "staticmethod" not in decorators
        self._bind(node.name, "function", attribute=cls is not None)
        if cls is not None and node.name == "__init__":
            self.f.classes[cls.name].init = _params(node.args, True)
        sig = _params(node.args, is_method)
        entry = self.f.callables.setdefault(node.name, _Callable())
        entry.params |= sig.params
        entry.varkw |= sig.varkw
        self.f.all_params |= sig.params
        if "fixture" in decorators:
            self.f.fixtures.add(node.name)
        collected = self.u.is_test and (
            node.name.startswith("test") and (cls is None or cls.name.startswith("Test"))
        )
        if collected or "fixture" in decorators:
            positional = [*node.args.posonlyargs, *node.args.args][1 if is_method else 0 :]
            undefaulted = positional[: len(positional) - len(node.args.defaults)]
            self.f.fixture_params.update(a.arg for a in undefaulted)
        saved_r = set(self.receivers)
        first = [*node.args.posonlyargs, *node.args.args][:1]
        if is_method and first:
            self.receivers.add(first[0].arg)
        saved, self._body_level = self._body_level, False
        self._annotation(node.returns)
        self.generic_visit(node)
        self._body_level, self.receivers = saved, saved_r

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.f.all_params |= _params(node.args, False).params
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        self._bind(node.arg)
        self._annotation(node.annotation)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._annotation(node.annotation)
        self.generic_visit(node)

    def _annotation(self, node: ast.expr | None) -> None:
        """Forward references in annotations are code, renamed by the rewrite."""
        if node is not None:
            self.renamed_strings.update(id(c) for c in ast.walk(node))

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Store | ast.Del):
            self._bind(node.id, attribute=self._in_class_body() is not None)
        elif self._in_class_body() is not None:
            self.f.class_body_loads.add(node.id)
        if node.id in REFLECTIVE:
            self.f.reflective = True
        self.f.seen.add(node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in REFLECTIVE:
            self.f.reflective = True
        v = node.value
        own_receiver = (isinstance(v, ast.Name) and v.id in self.receivers) or (
            isinstance(v, ast.Name) and v.id in self.f.classes
        )
        if isinstance(node.ctx, ast.Store | ast.Del) and own_receiver:
            self._bind(node.attr, attribute=True)
        is_super = isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "super"
        in_module = _module_ref(v, self.u, self.f) is not None
        if not (own_receiver or is_super or in_module):
            self.f.foreign_receivers.add(node.attr)
        self.generic_visit(node)

    def _bind_names(self, names: list[str]) -> None:
        for n in names:
            self._bind(n)

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> None:
        self._bind_names(node.names)

    visit_Nonlocal = visit_Global  # type: ignore[assignment]

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self._bind(node.name)
        self.generic_visit(node)

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        if node.name:
            self._bind(node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:
        if node.name:
            self._bind(node.name)

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        if node.rest:
            self._bind(node.rest)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(isinstance(t, ast.Name) and t.id in STRING_LISTS for t in node.targets):
            self.renamed_strings.update(id(c) for c in ast.walk(node.value))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        """Strings that may name code (when the code reflects on names), except the ones the
        rewrite renames itself (``__all__``, parametrize argument names)."""
        if isinstance(node.value, str) and id(node) not in self.renamed_strings:
            text = node.value.lstrip("-")
            if _IDENT.fullmatch(text.replace("-", "_")) and node.value.startswith("--"):
                self.f.keep.setdefault(text.replace("-", "_"), "command-line option name")
            for part in node.value.split("."):
                if _IDENT.fullmatch(part):
                    self.f.strings.add(part)

    def visit_Call(self, node: ast.Call) -> None:
        self.f.calls.append((node, self.u))
        func = node.func
        attr = func.attr if isinstance(func, ast.Attribute) else None
        if attr == "parametrize":
            argnames = node.args[0] if node.args else None
            for kw in node.keywords:
                argnames = kw.value if kw.arg == "argnames" else argnames
            for c in ast.walk(argnames) if argnames is not None else []:
                if isinstance(c, ast.Constant) and isinstance(c.value, str):
                    self.f.parametrized.update(s.strip() for s in c.value.split(","))
                    self.renamed_strings.add(id(c))
        if attr == "fixture" or (isinstance(func, ast.Name) and func.id == "fixture"):
            for kw in node.keywords:
                if kw.arg == "name" and isinstance(kw.value, ast.Constant):
                    self.f.keep.setdefault(str(kw.value.value), "fixture named by a string")
        self.generic_visit(node)
