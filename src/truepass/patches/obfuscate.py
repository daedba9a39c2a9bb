"""Consistent identifier renaming of a sample's Python sources: the leakage probe's rewrite.

:func:`plan_renaming` reads every version of a sample's files (buggy code, fixed code, overfit
code, tests) with :mod:`ast` and decides, once per identifier, whether the sample itself defines it
and can rename it safely; :func:`rewrite_files` then applies that one plan to any version, so the
buggy code, its fix and its tests stay consistent. Nothing of the sample is executed: only the
standard library modules (and pytest) that a sample imports are imported here, to learn which
attribute names their objects carry.

What is renamed: functions, classes, methods, parameters, locals, module-level names, attributes
defined on the sample's own classes (class-body names, ``self.x = ...``, ``__slots__``), keyword
arguments at calls of the sample's own callables, and the modules of its ``.py`` files. New names
come from a seeded hash: ``f_1a2b`` (function), ``C_77aa`` (class), ``v_9c0d`` (anything else),
``mod_3f2a`` (module), keeping leading underscores and a ``test``/``Test`` prefix so that pytest
still collects tests. Docstrings and other bare string statements go, comments go, the layout is
``ast.unparse``'s; string literals that are data stay as they are.

What is kept, on purpose (see :attr:`Renaming.kept` for the reason of each): builtins, dunder
names, ``self``/``cls``, names imported from outside the sample, attributes that objects of the
standard library or pytest also carry (``pop``, ``name``, ...), pytest fixture parameters, Enum
members and TypedDict keys, keywords passed through calls the analysis cannot follow, and, when
the code reflects on names (``getattr``, ``asdict``, ``mock.patch``, ...), every identifier that
also occurs as a string literal. Package directories, ``__init__.py`` and ``conftest.py`` keep their
names.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import importlib
import io
import re
import sys
import types
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePosixPath

from truepass.errors import TruepassError

BUILTIN_NAMES = frozenset(dir(builtins))
KEEP_ALWAYS = frozenset({"self", "cls"})
KEEP_FILES = frozenset({"__init__", "__main__", "conftest", "setup", "sitecustomize"})
REFLECTIVE = frozenset({
    "getattr", "setattr", "hasattr", "delattr", "vars", "globals", "locals", "eval", "exec",
    "compile", "__import__", "import_module", "asdict", "astuple", "fields", "_asdict", "_fields",
    "__dict__", "attrgetter", "methodcaller", "get_type_hints", "signature", "getmembers",
    "__getattribute__", "__setattr__", "__getattr__", "__delattr__", "getfixturevalue", "patch",
    "setitem", "delitem",
})  # fmt: skip
FORWARDERS = frozenset(
    ["partial", "partialmethod", "replace", "_replace", "Thread", "Process", "submit"]
)
ENUM_BASES = frozenset(["Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "TypedDict"])
FIELD_BASES = frozenset({"NamedTuple"})
STRING_LISTS = frozenset({"__all__", "__slots__", "__match_args__"})
TYPEVAR_LIKE = frozenset({"TypeVar", "ParamSpec", "TypeVarTuple", "NewType"})
PYTEST_NAMES = frozenset({
    "setup_module", "teardown_module", "setup_function", "teardown_function", "setup_class",
    "teardown_class", "setup_method", "teardown_method", "setup", "teardown", "pytestmark",
})  # fmt: skip
PYTEST_INTERNALS = ("_pytest.capture", "_pytest.python_api", "_pytest.raises", "_pytest.recwarn")
NEVER_IMPORT = frozenset({"antigravity", "this", "idlelib", "tkinter", "turtle", "turtledemo"})
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ObfuscationError(TruepassError):
    """A source cannot be obfuscated safely (it does not parse, or does not unparse faithfully)."""


@dataclass(frozen=True)
class Renaming:
    """One sample's renaming plan, applied alike to every version of its files."""

    names: dict[str, str]
    modules: dict[str, str]
    paths: dict[str, str]
    kept: dict[str, str]
    facts: _Facts = field(repr=False, compare=False)

    @property
    def attribute_only(self) -> frozenset[str]:
        """Renamed identifiers that must keep their name where they are not attributes (a
        method ``min`` is renamed, the builtin ``min`` is not)."""
        f = self.facts
        return frozenset(n for n in self.names if n in BUILTIN_NAMES or n in f.ext_bound)


@dataclass
class _Callable:
    params: set[str] = field(default_factory=set)
    varkw: bool = False


@dataclass
class _Class:
    bases: list[str] = field(default_factory=list)
    fields: set[str] = field(default_factory=set)
    init: _Callable | None = None
    dataclass: bool = False
    attrs: set[str] = field(default_factory=set)


@dataclass
class _Unit:
    path: str
    tree: ast.Module
    is_test: bool
    package: str
    modules: dict[str, str] = field(default_factory=dict)  # local name -> own module
    bare: set[str] = field(default_factory=set)


@dataclass
class _Facts:
    own_modules: set[str]
    bound: set[str] = field(default_factory=set)
    kinds: dict[str, str] = field(default_factory=dict)
    class_attrs: set[str] = field(default_factory=set)
    ext_bound: set[str] = field(default_factory=set)
    ext_modules: set[tuple[str, tuple[str, ...]]] = field(default_factory=set)
    callables: dict[str, _Callable] = field(default_factory=dict)
    classes: dict[str, _Class] = field(default_factory=dict)
    all_params: set[str] = field(default_factory=set)
    fixtures: set[str] = field(default_factory=set)
    fixture_params: set[str] = field(default_factory=set)
    parametrized: set[str] = field(default_factory=set)
    strings: set[str] = field(default_factory=set)
    reflective: bool = False
    keep: dict[str, str] = field(default_factory=dict)
    foreign_receivers: set[str] = field(default_factory=set)
    class_body_loads: set[str] = field(default_factory=set)
    calls: list[tuple[ast.Call, _Unit]] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)


def module_name(path: str) -> str:
    """Dotted module of a path: ``pkg/mod.py`` is ``pkg.mod``, ``pkg/__init__.py`` is ``pkg``."""
    parts = list(PurePosixPath(path).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _digest(seed: str, kind: str, ident: str, n: int) -> str:
    return hashlib.sha256(f"{seed}\0{kind}\0{ident}".encode()).hexdigest()[:n]


def _fresh(seed: str, kind: str, ident: str, make, taken: set[str]) -> str:  # type: ignore[no-untyped-def]
    for n in range(4, 65, 2):
        new = make(_digest(seed, kind, ident, n))
        if new not in taken:
            taken.add(new)
            return new
    raise ObfuscationError(f"no fresh name for {ident!r}")  # pragma: no cover


def _new_identifier(ident: str, kind: str, seed: str, taken: set[str]) -> str:
    bare = ident.lstrip("_")
    lead = ident[: len(ident) - len(bare)]
    if bare.startswith("test"):
        prefix = "test_"
    elif bare.startswith("Test"):
        prefix = "Test_"
    else:
        prefix = {"class": "C_", "function": "f_"}.get(kind, "v_")
    return _fresh(seed, "name", ident, lambda h: f"{lead}{prefix}{h}", taken)


def _new_path(path: str, seed: str, taken: set[str]) -> str:
    p = PurePosixPath(path)
    stem = p.stem
    if stem.startswith("test_"):
        make = "test_{}".format
    elif stem.endswith("_test"):
        make = "mod_{}_test".format
    else:
        make = "mod_{}".format
    new_stem = _fresh(seed, "module", module_name(path), make, taken)
    return str(p.with_name(new_stem + ".py"))


def plan_renaming(
    versions: list[dict[str, str]],
    *,
    seed: int = 0,
    salt: str = "",
    test_paths: frozenset[str] = frozenset(),
) -> Renaming:
    """Decide the renaming for a sample from all versions of its files (code and tests).

    ``versions`` are file maps (path -> text), e.g. the buggy code, the fixed code, the overfit
    code and the tests; every ``.py`` file in them is analysed. New names are hashes of
    ``seed``, ``salt`` (e.g. the sample id, so that ``i`` is not renamed alike in every sample)
    and the old name. ``test_paths`` marks the files whose functions pytest collects. Raises
    :class:`ObfuscationError` if a file does not parse.
    """
    py_paths = sorted({p for v in versions for p in v if p.endswith(".py")})
    facts = _Facts(own_modules={module_name(p) for p in py_paths})
    units = []
    for version in versions:
        for path, text in version.items():
            if path.endswith(".py"):
                units.append(_unit(path, text, path in test_paths, facts))
    for unit in units:
        _Collector(facts, unit).visit(unit.tree)
    kept = _decide(facts)
    taken = set(facts.seen) | set(BUILTIN_NAMES)
    renamed = sorted(set(facts.bound | facts.class_attrs) - set(kept))
    key = f"{seed}:{salt}"
    names = {i: _new_identifier(i, facts.kinds.get(i, "var"), key, taken) for i in renamed}
    paths: dict[str, str] = {}
    for path in py_paths:
        mod = module_name(path)
        if PurePosixPath(path).stem not in KEEP_FILES and mod not in facts.keep:
            paths[path] = _new_path(path, key, taken)
    modules = {module_name(p): module_name(n) for p, n in paths.items()}
    return Renaming(names=names, modules=modules, paths=paths, kept=kept, facts=facts)


def _unit(path: str, text: str, is_test: bool, facts: _Facts) -> _Unit:
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError) as exc:
        raise ObfuscationError(f"{path} does not parse: {exc}") from exc
    mod = module_name(path)
    package = mod if path.endswith("__init__.py") else mod.rpartition(".")[0]
    unit = _Unit(path=path, tree=tree, is_test=is_test, package=package)
    unit.modules = _own_module_bindings(unit, facts)
    return unit


def _own_module_bindings(unit: _Unit, facts: _Facts) -> dict[str, str]:
    """Local names that a file binds to the sample's own modules (or package directories);
    ``unit.bare`` gets those bound under the module's own name (no ``as``)."""
    out: dict[str, str] = {}
    for node in ast.walk(unit.tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                top = a.name.split(".")[0]
                if _is_own(facts, a.name):
                    out[a.asname or top] = a.name if a.asname else top
                    unit.bare.update([] if a.asname else [top])
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(unit, node.module, node.level)
            for a in node.names:
                sub = f"{base}.{a.name}".strip(".")
                if sub in facts.own_modules:
                    out[a.asname or a.name] = sub
                    unit.bare.update([] if a.asname else [a.name])
    return out


def _absolute(unit: _Unit, module: str | None, level: int) -> str:
    if not level:
        return module or ""
    base = unit.package.split(".") if unit.package else []
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, *([module] if module else [])])


def _is_own(facts: _Facts, dotted: str) -> bool:
    return any(m == dotted or m.startswith(dotted + ".") for m in facts.own_modules)


def _decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> set[str]:
    out = set()
    for d in node.decorator_list:
        d = d.func if isinstance(d, ast.Call) else d
        if isinstance(d, ast.Name):
            out.add(d.id)
        elif isinstance(d, ast.Attribute):
            out.add(d.attr)
    return out


def _base_names(node: ast.ClassDef) -> list[str]:
    out = []
    for b in node.bases:
        b = b.value if isinstance(b, ast.Subscript) else b
        if isinstance(b, ast.Name):
            out.append(b.id)
        elif isinstance(b, ast.Attribute):
            out.append(b.attr)
    return out


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


@lru_cache(maxsize=1)
def _core_attributes() -> frozenset[str]:
    kinds: list[type] = [
        object, type, int, float, complex, bool, str, bytes, bytearray, memoryview, list, tuple,
        dict, set, frozenset, range, slice, property, staticmethod, classmethod, super,
        BaseException, enumerate, zip, map, filter, reversed, type({}.keys()), type({}.values()),
        type({}.items()), types.FunctionType, types.BuiltinFunctionType, types.MethodType,
        types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType, types.ModuleType,
        types.CodeType, types.FrameType, types.TracebackType, types.SimpleNamespace,
        types.MappingProxyType, io.TextIOWrapper, io.BufferedReader, io.BufferedWriter,
        io.BufferedRandom, io.FileIO, io.StringIO, io.BytesIO,
    ]  # fmt: skip
    return frozenset(a for k in kinds for a in dir(k))


@lru_cache(maxsize=512)
def _module_attributes(dotted: str) -> frozenset[str] | None:
    """Attribute names of every class a known module offers; None for a module we do not know
    (not in the standard library or pytest, or not importable here)."""
    top = dotted.split(".")[0]
    if top in NEVER_IMPORT or (top not in sys.stdlib_module_names and top not in ("pytest",)):
        return None
    try:
        module = importlib.import_module(dotted)
    except Exception:  # importing can fail in any way; then we simply do not know the module
        return None
    found = [v for v in vars(module).values() if isinstance(v, type)]
    if top == "pytest":  # what fixtures and context managers hand to tests
        for name in PYTEST_INTERNALS:
            mod = sys.modules.get(name)
            found += [v for v in vars(mod).values() if isinstance(v, type)] if mod else []
    return frozenset(a for k in found for a in dir(k))


def _foreign_attributes(facts: _Facts) -> tuple[set[str], bool]:
    """Attribute names that objects from outside the sample may carry; and whether some import
    is unknown (then any attribute read on a foreign object is kept)."""
    out = set(_core_attributes())
    unknown = False
    for base, names in sorted(facts.ext_modules):
        attrs = _module_attributes(base) if base else None
        if attrs is None:
            unknown = True
            continue
        out |= attrs
        for n in names:
            sub = _module_attributes(f"{base}.{n}") if _is_submodule(base, n) else None
            out |= sub or set()
    for name in facts.seen & BUILTIN_NAMES:
        obj = getattr(builtins, name)
        if isinstance(obj, type) and issubclass(obj, BaseException):
            out |= set(dir(obj))
    return out, unknown


def _is_submodule(base: str, name: str) -> bool:
    module = sys.modules.get(base)
    return isinstance(getattr(module, name, None), types.ModuleType)


def _decide(facts: _Facts) -> dict[str, str]:
    """Identifiers the sample defines but that must keep their names, with the reason."""
    kept: dict[str, str] = {}
    candidates = facts.bound | facts.class_attrs

    def keep(name: str, why: str) -> None:
        if name in candidates and name not in kept:
            kept[name] = why

    for name in sorted(candidates):
        if name.startswith("__") and name.endswith("__"):
            keep(name, "dunder name")
        elif name in PYTEST_NAMES or name.startswith("pytest_"):
            keep(name, "name pytest looks up (hook, xunit setup, pytestmark)")
        elif name in KEEP_ALWAYS:
            keep(name, "naming convention")
        elif not (name in facts.bound or name in facts.class_body_loads):
            continue  # only an attribute: its name cannot clash with a builtin or an import
        elif name in BUILTIN_NAMES:
            keep(name, "builtin name")
        elif name in facts.ext_bound:
            keep(name, "also imported from outside the sample")
    for name, why in facts.keep.items():
        keep(name, why)
    if "*" in facts.keep:
        for name in sorted(candidates):
            keep(name, facts.keep["*"])
    foreign, unknown = _foreign_attributes(facts)
    for name in sorted(facts.class_attrs & foreign):
        keep(name, "attribute name that outside objects also carry")
    if unknown:
        for name in sorted(facts.class_attrs & facts.foreign_receivers):
            keep(name, "attribute read on an object of an unknown library")
        for info in facts.classes.values():
            if set(info.bases) - set(facts.classes) - BUILTIN_NAMES:
                for name in sorted(info.attrs):
                    keep(name, "defined on a subclass of a class of an unknown library")
    for name in sorted(facts.fixture_params - facts.fixtures - facts.parametrized):
        keep(name, "pytest fixture parameter")
    if facts.reflective:
        for name in sorted(facts.strings & candidates):
            keep(name, "also a string literal in code that reflects on names")
        for mod in sorted(facts.own_modules):
            if mod.rpartition(".")[2] in facts.strings:
                facts.keep[mod] = "module named in a string"
    _class_params(facts)
    while True:
        before = len(kept)
        for call, unit in facts.calls:
            for kw in call.keywords:
                if (
                    kw.arg
                    and kw.arg in facts.all_params
                    and _must_keep_keyword(call, kw.arg, unit, facts, kept)
                ):
                    keep(kw.arg, "keyword passed through a call the analysis cannot follow")
        if len(kept) == before:
            return kept


def _class_params(facts: _Facts) -> None:
    def params(name: str, seen: frozenset[str]) -> _Callable:
        info = facts.classes[name]
        if info.init is not None:
            return info.init
        own_bases = [b for b in info.bases if b in facts.classes and b not in seen]
        foreign = [b for b in info.bases if b not in facts.classes and b != "object"]
        if info.dataclass or FIELD_BASES & set(info.bases):
            out = _Callable(set(info.fields))
            for b in own_bases:
                out.params |= params(b, seen | {name}).params
            return out
        if foreign and not FIELD_BASES & set(foreign):
            return _Callable(varkw=True)
        return params(own_bases[0], seen | {name}) if own_bases else _Callable()

    for name in facts.classes:
        entry = facts.callables.setdefault(name, _Callable())
        p = params(name, frozenset())
        entry.params |= p.params
        entry.varkw |= p.varkw
        facts.all_params |= p.params


def _module_ref(node: ast.expr, unit: _Unit, facts: _Facts) -> str | None:
    """The sample's own module (or package) that ``node`` names in ``unit``, if any."""
    if isinstance(node, ast.Name):
        return unit.modules.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _module_ref(node.value, unit, facts)
        if base is not None and _is_own(facts, f"{base}.{node.attr}"):
            return f"{base}.{node.attr}"
    return None


def _resolve_callee(
    func: ast.expr, unit: _Unit, facts: _Facts, kept: dict[str, str]
) -> tuple[str, str]:
    """("own", name) for a call of the sample's own function, class or method; ("external", "")
    for a builtin or an imported callable; ("unknown", "") when the analysis cannot tell."""
    if isinstance(func, ast.Name):
        n = func.id
        outside = n in BUILTIN_NAMES or n in facts.ext_bound
        if n in facts.callables:
            return ("unknown", "") if outside else ("own", n)
        return ("external", n) if outside or n in unit.modules else ("unknown", "")
    if isinstance(func, ast.Attribute):
        a = func.attr
        v = func.value
        if _module_ref(v, unit, facts) is not None:
            return ("own", a) if a in facts.callables else ("unknown", "")
        if isinstance(v, ast.Name) and v.id in facts.ext_bound and v.id not in facts.bound:
            return ("external", a)
        if a in facts.callables:
            return ("own", a) if a not in kept else ("unknown", "")
        return ("unknown", "") if a in facts.class_attrs else ("external", a)
    return ("unknown", "")


def _must_keep_keyword(
    call: ast.Call, kw: str, unit: _Unit, facts: _Facts, kept: dict[str, str]
) -> bool:
    kind, name = _resolve_callee(call.func, unit, facts, kept)
    if kind == "own":
        sig = facts.callables[name]
        return kw not in sig.params and sig.varkw
    if kind == "unknown":
        return True
    passes_own = any(
        isinstance(a, ast.Name) and a.id in facts.callables
        for a in [*call.args, *(k.value for k in call.keywords)]
    )
    return name in FORWARDERS or passes_own


def rewrite_source(path: str, text: str, renaming: Renaming) -> str:
    """``text`` (the file at ``path``) renamed by ``renaming``, without docstrings or comments,
    laid out by ``ast.unparse``. Raises :class:`ObfuscationError` if it does not parse or if the
    result does not parse back to the same tree."""
    unit = _unit(path, text, False, renaming.facts)
    tree = _Rewriter(renaming, unit).visit(unit.tree)
    out = ast.unparse(tree)
    try:
        again = ast.parse(out)
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
                    expr = ast.parse(c.value, mode="eval")
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
            and _callee_name(value.func) in TYPEVAR_LIKE
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
        callee = _callee_name(node.func)
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


def _callee_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


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
