"""The built-in families by name, found by listing ``truepass/families/`` (each sub-package one
family), and what their modules of a given name contribute: the CLI's commands
(``commands.COMMANDS``), the solver registry's kinds (``solvers.KINDS``).

Light on purpose (the standard library only): ``truepass --help`` lists the families' commands
through it without importing the family registry and the models under it.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from functools import cache
from typing import Any


@cache
def listing() -> tuple[str, ...]:
    """The built-in families' names (a package ``repair``, a name ``repair``; ``_`` reads ``-``)."""
    from truepass import families

    return tuple(
        m.name.replace("_", "-") for m in pkgutil.iter_modules(families.__path__) if m.ispkg
    )


def contributed(submodule: str, attr: str, kind: type) -> list[Any]:
    """What the built-in families' ``submodule`` modules contribute as ``attr`` (the objects of
    ``kind``), in family order. A family without that module contributes nothing."""
    out: list[Any] = []
    for name in listing():
        module = f"truepass.families.{name.replace('-', '_')}.{submodule}"
        if importlib.util.find_spec(module) is not None:
            found = getattr(importlib.import_module(module), attr, ())
            out.extend(x for x in found if isinstance(x, kind))
    return out
