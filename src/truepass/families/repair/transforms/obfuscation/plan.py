"""Second analysis pass: decide which of the sample's identifiers are renamed, and to what.

See :mod:`truepass.families.repair.transforms.obfuscate` for what is renamed and what is kept.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import importlib
import io
import sys
import types
from functools import lru_cache
from pathlib import PurePosixPath

from truepass.families.repair.transforms.obfuscation.collect import _Collector
from truepass.families.repair.transforms.obfuscation.facts import (
    BUILTIN_NAMES,
    FIELD_BASES,
    FORWARDERS,
    KEEP_ALWAYS,
    KEEP_FILES,
    NEVER_IMPORT,
    PYTEST_INTERNALS,
    PYTEST_NAMES,
    ObfuscationError,
    Renaming,
    _Callable,
    _Facts,
    _resolve_callee,
    _Unit,
    _unit,
    module_name,
)


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
