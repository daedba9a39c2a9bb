"""The commands families and plug-ins add to the CLI: a built-in family's ``commands`` module
(``truepass/families/NAME/commands.py``, defining ``COMMANDS``: each command's name, help line
and ``"module:function"``, so that listing them imports none of them) and the entry points of the
group ``truepass.commands`` (:mod:`truepass.plugins`), each a :class:`~truepass.plugins.Command`."""

from __future__ import annotations

from truepass.families.builtin import contributed
from truepass.plugins import COMMANDS, Command, of_type


def commands() -> list[Command]:
    """Every added command: the built-in families' in family order, then the plug-ins'."""
    out: list[Command] = contributed("commands", "COMMANDS", Command)
    for _, command in of_type(COMMANDS, Command):
        assert isinstance(command, Command)
        out.append(command)
    return out
