"""The commands families and plug-ins add to the CLI: a built-in family's ``cli`` module
(``truepass/families/NAME/cli.py``, defining ``COMMANDS``) and the entry points of the group
``truepass.commands`` (:mod:`truepass.plugins`), each a :class:`~truepass.plugins.Command`."""

from __future__ import annotations

import importlib
import importlib.util

from truepass.families import registry
from truepass.plugins import COMMANDS, Command, of_type


def commands() -> list[Command]:
    """Every added command: the built-in families' in family order, then the plug-ins'."""
    out: list[Command] = []
    for package in registry.builtin_modules().values():
        name = f"{package}.cli"
        if importlib.util.find_spec(name) is not None:
            module = importlib.import_module(name)
            out.extend(c for c in getattr(module, "COMMANDS", ()) if isinstance(c, Command))
    for _, command in of_type(COMMANDS, Command):
        assert isinstance(command, Command)
        out.append(command)
    return out
