"""Families by name: the built-in ones (each a folder ``truepass/families/NAME/`` whose
``family.py`` defines ``FAMILY``, loaded when the family is asked for), those of installed
plug-ins (entry points of the group ``truepass.families``, :mod:`truepass.plugins`), and any
registered with :func:`register` (a test, or a program that embeds truepass).

Nothing outside a family's own folder names it: the loader, runner, checker, executors, summary
and report find it here.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from functools import cache

from pydantic import BaseModel

from truepass import plugins
from truepass.errors import InputError
from truepass.families.base import Family
from truepass.families.builtin import contributed, listing
from truepass.families.formats import SuiteFormat

__all__ = [
    "DEFAULT",
    "REGISTRY",
    "contributed",
    "formats",
    "get",
    "names",
    "of_sample",
    "register",
    "unregister",
]

DEFAULT = "repair"
"""The family of a suite line without a ``"family"`` field, and of every default that names one:
the one place it is named."""


def register(family: type[Family]) -> type[Family]:
    """Make ``family`` known by its ``name`` (usable as a class decorator). Registering another
    class under a built-in or taken name is an error."""
    return REGISTRY.register(family)


def unregister(name: str) -> None:
    """Forget a family registered with :func:`register` (built-in ones stay)."""
    REGISTRY.unregister(name)


def names() -> list[str]:
    """Every known family name, sorted."""
    return sorted(REGISTRY.names())


def get(name: str) -> type[Family]:
    """The family called ``name``; :class:`InputError` naming the known ones if there is none."""
    return REGISTRY.get(name)


def _declared() -> Iterator[SuiteFormat]:
    """Every family's suite formats, the default family's first, each family imported only when
    the iteration reaches it."""
    for name in sorted(names(), key=lambda n: n != DEFAULT):
        yield from get(name).suite_formats()


def formats() -> dict[str, SuiteFormat]:
    """Every suite format (``--suite FORMAT:PATH``) of every known family, by name (the default
    family's first; a name two families declare is the first one's, as in :func:`format_named`)."""
    out: dict[str, SuiteFormat] = {}
    for fmt in _declared():
        out.setdefault(fmt.name, fmt)
    return out


def format_named(fmt_name: str) -> SuiteFormat | None:
    """The suite format called ``fmt_name`` (None if no family declares it), importing the
    families one at a time only until one declares it: ``--suite humaneval`` loads no other
    family than the ones before codegen."""
    return next((fmt for fmt in _declared() if fmt.name == fmt_name), None)


def of_sample(sample: BaseModel) -> type[Family]:
    """The family whose sample schema ``sample`` is."""
    for name in names():
        family = get(name)
        if isinstance(sample, family.sample_type):
            return family
    raise InputError(f"no task family has samples of type {type(sample).__name__}")


@cache
def _builtin(name: str) -> type[Family]:
    module = importlib.import_module(f"truepass.families.{name.replace('-', '_')}.family")
    family: type[Family] = module.FAMILY
    return family


REGISTRY: plugins.Registry[type[Family]] = plugins.Registry(
    "task family", plugins.FAMILIES, Family, lambda f: f.name,
    listing, _builtin, field="family", module=__name__,
)  # fmt: skip
