"""Plug-ins from outside truepass: families, solver kinds, languages and CLI commands that a
separate package adds through Python entry points, without editing truepass.

A package declares them in its ``pyproject.toml``::

    [project.entry-points."truepass.families"]
    upper = "truepass_upper:UpperFamily"          # a Family subclass

    [project.entry-points."truepass.solvers"]
    shout = "truepass_upper:SHOUT"                # a SolverKind

    [project.entry-points."truepass.languages"]
    lisp = "truepass_lisp:LISP"                   # a repair Language

    [project.entry-points."truepass.commands"]
    upper-stats = "truepass_upper:STATS"          # a Command

The registries (:mod:`truepass.families.registry`, :mod:`truepass.solvers.registry`, the
repair family's languages, the CLI) read their group here; a built-in name cannot be taken.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Generic, TypeVar

from truepass.errors import InputError
from truepass.paths import user_cache_dir

FAMILIES = "truepass.families"
SOLVERS = "truepass.solvers"
LANGUAGES = "truepass.languages"
COMMANDS = "truepass.commands"


@dataclass(frozen=True)
class Command:
    """A CLI command a family or a plug-in adds: ``truepass NAME`` (``group`` None) or
    ``truepass GROUP NAME`` (``build-suite``).

    ``function`` is a typer command function, or where it is, ``"module:function"`` (a
    ``typer.Typer`` of subcommands there is a group of them): the module is imported only when
    the command runs or shows its own ``--help``, so that ``truepass --help`` stays quick. Such a
    command gives ``help``, the one line ``truepass --help`` lists it with (the first paragraph
    of its docstring; a test of the built-in commands holds the two together). A command given
    as a function is listed with its docstring's first paragraph unless ``help`` says otherwise.
    """

    name: str
    function: Callable[..., None] | str
    group: str | None = None
    help: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.function, str):
            module, sep, attr = self.function.partition(":")
            if not (module and sep and attr):
                raise ValueError(f"command '{self.name}': '{self.function}' is not "
                                 "'module:function'")  # fmt: skip
            if not self.help:
                raise ValueError(f"command '{self.name}' names its function by place "
                                 f"('{self.function}') and so must give its help line")  # fmt: skip

    def load(self) -> Callable[..., None]:
        """The command's function (or ``typer.Typer``), imported if it was named by place."""
        if not isinstance(self.function, str):
            return self.function
        module, _, attr = self.function.partition(":")
        found: Callable[..., None] = getattr(importlib.import_module(module), attr)
        return found


@dataclass(frozen=True)
class Distribution:
    """The installed distribution an entry point comes from."""

    name: str
    version: str


@dataclass(frozen=True)
class EntryPoint:
    """One entry point of truepass's groups, as ``importlib.metadata`` reads it (name, value
    ``module:attribute``, group, distribution), without importing it."""

    name: str
    value: str
    group: str
    dist: Distribution | None = None

    def load(self) -> object:
        """The object it names (its module imported), as ``importlib.metadata`` loads it."""
        module, _, attr = self.value.partition("[")[0].strip().partition(":")
        obj: object = importlib.import_module(module.strip())
        for part in attr.strip().split(".") if attr.strip() else ():
            obj = getattr(obj, part)
        return obj


GROUPS = (FAMILIES, SOLVERS, LANGUAGES, COMMANDS)


@cache
def _all_entry_points() -> tuple[EntryPoint, ...]:
    """Every entry point of :data:`GROUPS` of the distributions this Python finds, read once per
    process and kept in the user cache by a fingerprint of those distributions (every
    ``*.dist-info`` and ``*.egg-info`` on ``sys.path``, with the size and modification time of
    its ``entry_points.txt``): reading every distribution's metadata costs more than the rest of
    ``truepass --help``. Any distribution added, removed or reinstalled reads them afresh."""
    key = _distributions_fingerprint()
    path = user_cache_dir() / "entry-points" / f"{key[:32]}.json"
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
        return tuple(
            EntryPoint(n, v, g, Distribution(*d) if d else None) for n, v, g, d in rows["found"]
        )
    except (OSError, ValueError, KeyError, TypeError):
        pass
    from importlib import metadata

    everything = metadata.entry_points()  # every distribution read once
    found = tuple(
        EntryPoint(ep.name, ep.value, ep.group,
                   Distribution(ep.dist.name, ep.dist.version) if ep.dist is not None else None)
        for g in GROUPS
        for ep in everything.select(group=g)
    )  # fmt: skip
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        rows = [[e.name, e.value, e.group, [e.dist.name, e.dist.version] if e.dist else None]
                for e in found]  # fmt: skip
        partial.write_text(json.dumps({"found": rows}), encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        pass
    return found


def _distributions_fingerprint() -> str:
    seen: list[tuple[str, str, int, int]] = []
    for entry in sys.path:
        try:
            listing = sorted(os.scandir(entry or "."), key=lambda e: e.name)
        except OSError:
            continue
        for item in listing:
            if item.name.endswith((".dist-info", ".egg-info")):
                try:
                    st = os.stat(os.path.join(item.path, "entry_points.txt"))
                    seen.append((entry, item.name, st.st_size, st.st_mtime_ns))
                except OSError:
                    seen.append((entry, item.name, -1, -1))
    return hashlib.sha256(json.dumps([sys.version, seen]).encode()).hexdigest()


def entry_points(group: str) -> list[EntryPoint]:
    """The entry points of ``group``, by name, not loaded."""
    return sorted((ep for ep in _all_entry_points() if ep.group == group), key=lambda e: e.name)


@cache
def loaded(group: str) -> tuple[tuple[str, object], ...]:
    """(name, object) of every entry point in ``group`` of the installed distributions, loaded
    once. A plug-in that cannot be loaded is an :class:`InputError` naming its distribution and
    what to do."""
    out = []
    for ep in entry_points(group):
        try:
            out.append((ep.name, ep.load()))
        except Exception as exc:  # a broken plug-in: say which, never half-load it
            where = ep.dist.name if ep.dist is not None else "an installed package"
            raise InputError(
                f"the plug-in '{ep.name}' ({group}, from {where}: {ep.value}) cannot be loaded: "
                f"{type(exc).__name__}: {exc}; fix or uninstall that package"
            ) from exc
    return tuple(out)


def of_type(group: str, kind: type) -> list[tuple[str, object]]:
    """The entry points of ``group`` whose object is a ``kind`` (or a subclass of it, for a
    class); :class:`InputError` naming the first that is not."""
    out = []
    for name, obj in loaded(group):
        ok = isinstance(obj, kind) or (isinstance(obj, type) and issubclass(obj, kind))
        if not ok:
            raise InputError(
                f"the plug-in '{name}' ({group}) is a {type(obj).__name__}, not a "
                f"{kind.__name__}; its package declares the wrong object"
            )
        out.append((name, obj))
    return out


# -- registrations made in this process (register() calls), for the processes that judge -------

Registration = tuple[str, str, object]
"""(key, the module whose ``REGISTRY`` took it, what was registered)"""
_local: dict[str, Registration] = {}


def remember(key: str, registry_module: str, obj: object) -> None:
    """Note a registration made by a call (not an entry point), so that the processes judging
    for this one (Dask workers) can make it too (:func:`replay`)."""
    _local[key] = (key, registry_module, obj)


def forget(key: str) -> None:
    _local.pop(key, None)


def local() -> tuple[Registration, ...]:
    """This process's registrations by call (picklable: the registry's module by name, and a
    class or object the worker can import)."""
    return tuple(_local.values())


def replay(registrations: Iterable[Registration]) -> None:
    """Make in this process the registrations another one made (each once)."""
    for key, registry_module, obj in registrations:
        if key not in _local:
            importlib.import_module(registry_module).REGISTRY.register(obj)


T = TypeVar("T")


class Registry(Generic[T]):
    """Plug-ins of one kind by name: the built-in ones (listed without loading them, loaded when
    asked for), those of installed packages (the entry points of ``group``), and those
    registered by call. The family, solver-kind and language registries are instances.

    Args:
        what: what the plug-ins are, as errors name them ("task family").
        group: the entry-point group.
        kind: the type every plug-in object is (or subclasses, for a class).
        name_of: a plug-in's name.
        builtin_names: the built-in names, in order, without loading them.
        load_builtin: the built-in plug-in of a name.
        field: the input field an unknown name is an error of.
        module: the module that holds this registry as ``REGISTRY`` (where a Dask worker finds
            it to replay a registration).
    """

    def __init__(
        self,
        what: str,
        group: str,
        kind: type,
        name_of: Callable[[T], str],
        builtin_names: Callable[[], Sequence[str]],
        load_builtin: Callable[[str], T],
        field: str,
        module: str,
    ) -> None:
        self.what, self.group, self.kind, self.field = what, group, kind, field
        self.module = module
        self._name_of, self._builtin_names, self._load = name_of, builtin_names, load_builtin
        self._registered: dict[str, T] = {}
        self._plugins: dict[str, T] | None = None

    def register(self, obj: T) -> T:
        """Make ``obj`` known by its name; another under a known name is a ``ValueError``."""
        name = self._name_of(obj)
        known = self._registered.get(name) or self.plugins().get(name)
        if known is None and name in self._builtin_names():
            known = self._load(name)
        if known is not None and known is not obj:
            raise ValueError(f"a {self.what} named '{name}' is already registered")
        self._registered[name] = obj
        remember(f"{self.group}:{name}", self.module, obj)
        return obj

    def unregister(self, name: str) -> None:
        """Forget what :meth:`register` made known (built-in ones and plug-ins stay)."""
        self._registered.pop(name, None)
        forget(f"{self.group}:{name}")

    def names(self) -> list[str]:
        """Every known name: the built-in ones in their order, the plug-ins', the registered."""
        out = list(self._builtin_names())
        out += [n for n in [*self.plugins(), *self._registered] if n not in out]
        return out

    def get(self, name: str) -> T:
        """The plug-in called ``name``; :class:`InputError` naming the known ones if none is."""
        if name in self._registered:
            return self._registered[name]
        if name in self._builtin_names():
            return self._load(name)
        if name in self.plugins():
            return self.plugins()[name]
        raise InputError(
            f"unknown {self.what} '{name}' (known: {', '.join(self.names())})", field=self.field
        )

    def plugins(self) -> dict[str, T]:
        """The installed packages' plug-ins of this kind, loaded once; one that takes a known
        name is an :class:`InputError`."""
        if self._plugins is None:
            found: dict[str, T] = {}
            for label, obj in of_type(self.group, self.kind):
                name = self._name_of(obj)  # type: ignore[arg-type]
                if name in self._builtin_names() or name in found:
                    raise InputError(
                        f"the plug-in '{label}' ({self.group}) declares the {self.what} "
                        f"'{name}', which is already known; rename it"
                    )
                found[name] = obj  # type: ignore[assignment]
            self._plugins = found
        return self._plugins
