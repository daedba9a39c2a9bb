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

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from typing import Any

from truepass.errors import InputError

FAMILIES = "truepass.families"
SOLVERS = "truepass.solvers"
LANGUAGES = "truepass.languages"
COMMANDS = "truepass.commands"


@dataclass(frozen=True)
class Command:
    """A CLI command a family or a plug-in adds: ``truepass NAME`` (``group`` None) or
    ``truepass GROUP NAME`` (``build-suite``). ``function`` is a typer command function."""

    name: str
    function: Callable[..., None]
    group: str | None = None


@cache
def loaded(group: str) -> tuple[tuple[str, object], ...]:
    """(name, object) of every entry point in ``group`` of the installed distributions, loaded
    once. A plug-in that cannot be loaded is an :class:`InputError` naming its distribution and
    what to do."""
    out = []
    for ep in sorted(metadata.entry_points(group=group), key=lambda e: e.name):
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

Registration = tuple[str, Callable[[Any], Any], object]
"""(key, the registry's ``register`` function, what was registered)"""
_local: dict[str, Registration] = {}


def remember(key: str, register: Callable[[Any], Any], obj: object) -> None:
    """Note a registration made by a call (not an entry point), so that the processes judging
    for this one (Dask workers) can make it too (:func:`replay`)."""
    _local[key] = (key, register, obj)


def forget(key: str) -> None:
    _local.pop(key, None)


def local() -> tuple[Registration, ...]:
    """This process's registrations by call (picklable: module-level functions, and classes or
    objects a worker can import)."""
    return tuple(_local.values())


def replay(registrations: Iterable[Registration]) -> None:
    """Make in this process the registrations another one made (each once)."""
    for key, register, obj in registrations:
        if key not in _local:
            register(obj)
