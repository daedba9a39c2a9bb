"""The obfuscation's shared model: what is always kept, the facts the analysis gathers about a
sample, its renaming plan, and how a file's imports resolve to the sample's own modules.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from truepass import pyast
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


def _unit(path: str, text: str, is_test: bool, facts: _Facts) -> _Unit:
    try:
        tree = pyast.parse(text, path)
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


def _last_name(node: ast.expr) -> str | None:
    """The name ``node`` ends in: ``x`` of ``x`` and of ``a.b.x``; None for any other expression."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None
