"""The commands families and plug-ins add to the CLI: a built-in family's ``cli`` module
(``truepass/families/NAME/cli.py``, defining ``COMMANDS``) and the entry points of the group
``truepass.commands`` (:mod:`truepass.plugins`), each a :class:`~truepass.plugins.Command`."""

from __future__ import annotations

from truepass.families import registry
from truepass.plugins import COMMANDS, Command, of_type


def commands() -> list[Command]:
    """Every added command: the built-in families' in family order, then the plug-ins'."""
    out: list[Command] = registry.contributed("cli", "COMMANDS", Command)
    for _, command in of_type(COMMANDS, Command):
        assert isinstance(command, Command)
        out.append(command)
    return out
