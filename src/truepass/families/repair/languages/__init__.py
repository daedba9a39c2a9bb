"""Repair's languages by name: the built-in ones (each module here defining ``LANGUAGE``),
those of installed plug-ins (entry points of the group ``truepass.languages``,
:mod:`truepass.plugins`) and any registered with :func:`register` (a test)."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from truepass import plugins
from truepass.families.repair.languages.base import Language

__all__ = ["Language", "code_fences", "get", "names", "of_path", "register", "unregister"]


def register(language: Language) -> Language:
    """Make ``language`` known by its name; a taken name is an error."""
    return REGISTRY.register(language)


def unregister(name: str) -> None:
    """Forget a language registered with :func:`register` (built-in ones stay)."""
    REGISTRY.unregister(name)


def names() -> list[str]:
    """Every known language, the built-in ones first (Python, then Java)."""
    return REGISTRY.names()


def get(name: str) -> Language:
    """The language called ``name``; :class:`InputError` naming the known ones if none is."""
    return REGISTRY.get(name)


def of_path(path: str) -> Language | None:
    """The language whose code files end like ``path``, None for a file of no known language."""
    for name in names():
        language = get(name)
        if path.endswith(language.code_suffix):
            return language
    return None


def code_fences() -> set[str]:
    """Every info string that marks a fenced block as code of a known language."""
    return {f for name in names() for f in (get(name).fence, *get(name).fence_aliases)}


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


REGISTRY: plugins.Registry[Language] = plugins.Registry(
    "language", plugins.LANGUAGES, Language, lambda lang: lang.name,
    lambda: tuple(_builtin()), lambda name: _builtin()[name], field="language", module=__name__,
)  # fmt: skip
