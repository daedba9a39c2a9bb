"""Repair's languages by name: the built-in ones (each module here defining ``LANGUAGE``),
those of installed plug-ins (entry points of the group ``truepass.languages``,
:mod:`truepass.plugins`) and any registered with :func:`register` (a test)."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from truepass import plugins
from truepass.errors import InputError
from truepass.families.repair.languages.base import Language

__all__ = ["Language", "get", "names", "register", "unregister"]

_registered: dict[str, Language] = {}


def register(language: Language) -> Language:
    """Make ``language`` known by its name; a taken name is an error."""
    known = _builtin().get(language.name) or _plugins().get(language.name)
    known = known or _registered.get(language.name)
    if known is not None and known is not language:
        raise ValueError(f"a language named '{language.name}' is already registered")
    _registered[language.name] = language
    plugins.remember(f"{plugins.LANGUAGES}:{language.name}", register, language)
    return language


def unregister(name: str) -> None:
    """Forget a language registered with :func:`register` (built-in ones stay)."""
    _registered.pop(name, None)
    plugins.forget(f"{plugins.LANGUAGES}:{name}")


def names() -> list[str]:
    """Every known language, the built-in ones first."""
    return [*_builtin(), *_plugins(), *_registered]


def get(name: str) -> Language:
    """The language called ``name``; :class:`InputError` naming the known ones if none is."""
    for table in (_builtin(), _plugins(), _registered):
        if name in table:
            return table[name]
    raise InputError(f"unknown language '{name}' (known: {', '.join(names())})",
                     field="language")  # fmt: skip


@cache
def _builtin() -> dict[str, Language]:
    here = importlib.import_module(__name__)
    found = [
        importlib.import_module(f"{__name__}.{m.name}").LANGUAGE
        for m in pkgutil.iter_modules(here.__path__)
        if m.name != "base"
    ]
    order = {"python": 0, "java": 1}  # the default first
    return {lang.name: lang for lang in sorted(found, key=lambda x: (order.get(x.name, 9), x.name))}


@cache
def _plugins() -> dict[str, Language]:
    out: dict[str, Language] = {}
    for label, language in plugins.of_type(plugins.LANGUAGES, Language):
        assert isinstance(language, Language)
        if language.name in _builtin() or language.name in out:
            raise InputError(
                f"the plug-in '{label}' ({plugins.LANGUAGES}) declares the language "
                f"'{language.name}', which is already known; rename it"
            )
        out[language.name] = language
    return out
