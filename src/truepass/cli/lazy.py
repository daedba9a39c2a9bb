"""A command group that imports a command's module only when that command runs.

``truepass --help`` lists every command with its help line, read from the command's declaration
(:class:`~truepass.plugins.Command`: name, ``"module:function"``, help), not from its module:
importing the modules of all commands would import the runner, pydantic's models, the families
and the rest for a listing. The command that runs (``truepass run ...``, ``truepass run --help``)
is imported and built into a click command then, by typer, as if it had been added with
``app.command()``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup
from typer.models import CommandInfo, TyperInfo

from truepass.plugins import Command

PRETTY_EXCEPTIONS_SHORT = True  # typer.Typer's default, which truepass's app keeps


class _AsGiven:
    """The value of ``--help`` as parsed. typer coerces every option's value through pydantic,
    the help flag's too (importing pydantic, 50 ms, for ``truepass suites``); the flag needs no
    coercion."""

    def coerce(self, value: Any, **_: Any) -> Any:
        return value


def light_help(option: Any) -> Any:
    """``option`` (a command's ``--help``) with no coercion, where typer would make one."""
    if option is not None and getattr(option, "_runtime_param", _AsGiven) is None:
        option._runtime_param = _AsGiven()
    return option


class LightCommand(TyperCommand):
    """A typer command whose ``--help`` flag is not coerced (:func:`light_help`)."""

    def get_help_option(self, ctx: Any) -> Any:
        return light_help(super().get_help_option(ctx))


class Listed(TyperCommand):
    """What a group lists for a command not imported yet: its name and help line."""

    def __init__(self, command: Command, *, rich_markup_mode: Any) -> None:
        super().__init__(
            name=command.name, help=help_line(command), rich_markup_mode=rich_markup_mode
        )
        self.declared = command


def help_line(command: Command) -> str:
    """The line a listing shows for ``command``: its declared ``help``, else the first paragraph
    of its function's docstring on one line."""
    if command.help:
        return command.help
    doc = (getattr(command.function, "__doc__", None) or "").strip()
    return " ".join(doc.split("\n\n")[0].split())


class LazyGroup(TyperGroup):
    """A typer group whose commands are :class:`~truepass.plugins.Command` declarations until one
    is asked for. Listing (its ``--help``) shows their declared help lines; running one, or its
    ``--help``, imports it (:meth:`get_command`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._listing = False

    def declare(self, commands: Iterable[Command]) -> None:
        """Add ``commands`` (in order) without importing them."""
        for command in commands:
            self.commands[command.name] = Listed(command, rich_markup_mode=self.rich_markup_mode)

    def add_group(self, group: TyperGroup) -> None:
        """Add a group of this package's own (``build-suite``)."""
        assert group.name
        self.commands[group.name] = group

    def get_help_option(self, ctx: Any) -> Any:
        return light_help(super().get_help_option(ctx))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = self.commands.get(cmd_name)
        if isinstance(found, Listed) and not self._listing:
            found = self.commands[cmd_name] = self._build(found.declared)
        return found

    def loaded(self) -> dict[str, Any]:
        """Every command of the group, imported and built (what tests and documentation checks
        walk), by name in listing order."""
        return {name: self.get_command(None, name) for name in list(self.commands)}

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True  # the listing reads the declarations; nothing is imported
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def _build(self, command: Command) -> Any:
        """The click command (or group, for a ``typer.Typer``) of ``command``, as typer builds
        one added with ``app.command(name)`` (``app.add_typer(sub, name=name)``)."""
        function = command.load()
        if isinstance(function, typer.Typer):
            return typer.main.get_group_from_info(
                TyperInfo(function, name=command.name),
                pretty_exceptions_short=PRETTY_EXCEPTIONS_SHORT,
                suggest_commands=self.suggest_commands,
                rich_markup_mode=self.rich_markup_mode,
            )
        return typer.main.get_command_from_info(
            CommandInfo(name=command.name, callback=function, cls=LightCommand),
            pretty_exceptions_short=PRETTY_EXCEPTIONS_SHORT,
            rich_markup_mode=self.rich_markup_mode,
        )
