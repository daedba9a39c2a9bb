"""Families by name: the built-in ones (each a folder ``truepass/families/NAME/`` whose package
defines ``FAMILY``), those of installed plug-ins (entry points of the group
``truepass.families``, :mod:`truepass.plugins`), and any registered with :func:`register` (a
test, or a program that embeds truepass).

Nothing outside a family's own folder names it: the loader, runner, checker, executors, summary
and report find it here.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from pydantic import BaseModel

from truepass import plugins
from truepass.errors import InputError
from truepass.families.base import Family
from truepass.families.formats import SuiteFormat

DEFAULT = "repair"
"""The family of a suite line without a ``"family"`` field, and of every default that names one:
the one place it is named."""

_registered: dict[str, type[Family]] = {}


def register(family: type[Family]) -> type[Family]:
    """Make ``family`` known by its ``name`` (usable as a class decorator). Registering another
    class under a built-in or taken name is an error."""
    name = family.name
    known = _registered.get(name) or (_builtin(name) if name in _builtin_names() else None)
    if known is not None and known is not family:
        raise ValueError(f"a family named '{name}' is already registered ({known.__qualname__})")
    _registered[name] = family
    plugins.remember(f"{plugins.FAMILIES}:{name}", register, family)
    return family


def unregister(name: str) -> None:
    """Forget a family registered with :func:`register` (built-in ones stay)."""
    _registered.pop(name, None)
    plugins.forget(f"{plugins.FAMILIES}:{name}")


def names() -> list[str]:
    """Every known family name."""
    return sorted(set(_builtin_names()) | set(_plugins()) | set(_registered))


def get(name: str) -> type[Family]:
    """The family called ``name``; :class:`InputError` naming the known ones if there is none."""
    if name in _registered:
        return _registered[name]
    if name in _builtin_names():
        return _builtin(name)
    if name in _plugins():
        return _plugins()[name]
    raise InputError(f"unknown task family '{name}' (known: {', '.join(names())})", field="family")


def formats() -> dict[str, SuiteFormat]:
    """Every suite format (``--suite FORMAT:PATH``) of every known family, by name (the default
    family's first)."""
    out: dict[str, SuiteFormat] = {}
    for name in sorted(names(), key=lambda n: n != DEFAULT):  # the default family's first
        for fmt in get(name).suite_formats():
            out[fmt.name] = fmt
    return out


def of_sample(sample: BaseModel) -> type[Family]:
    """The family whose sample schema ``sample`` is."""
    for name in names():
        family = get(name)
        if isinstance(sample, family.sample_type):
            return family
    raise InputError(f"no task family has samples of type {type(sample).__name__}")


@cache
def _plugins() -> dict[str, type[Family]]:
    """Families of installed plug-ins, by the name each declares (the entry point's name is
    only a label); one that takes a built-in name is an error."""
    out: dict[str, type[Family]] = {}
    for label, family in plugins.of_type(plugins.FAMILIES, Family):
        name = family.name  # type: ignore[union-attr]
        if name in _builtin_names() or name in out:
            raise InputError(
                f"the plug-in '{label}' ({plugins.FAMILIES}) declares the family '{name}', "
                "which is already known; rename it"
            )
        out[name] = family  # type: ignore[assignment]
    return out


def builtin_modules() -> dict[str, str]:
    """Built-in family name -> its package (``truepass.families.NAME``): where the CLI looks for
    a family's commands (``cli.py``) and the solver registry for its solver kinds."""
    return {name: f"truepass.families.{name.replace('-', '_')}" for name in _builtin_names()}


@cache
def _builtin_names() -> tuple[str, ...]:
    from truepass import families

    return tuple(
        m.name.replace("_", "-") for m in pkgutil.iter_modules(families.__path__) if m.ispkg
    )


@cache
def _builtin(name: str) -> type[Family]:
    module = importlib.import_module(f"truepass.families.{name.replace('-', '_')}")
    family: type[Family] = module.FAMILY
    return family
