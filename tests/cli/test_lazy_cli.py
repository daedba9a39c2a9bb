"""``truepass --help`` lists every command from its declaration (name, ``"module:function"``, help
line) and imports none of them; the declared help lines are the commands' own docstrings; the
command that runs is imported then, with all its options."""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from truepass.cli import COMMANDS, LAST, app
from truepass.cli.discovery import commands
from truepass.cli.lazy import LazyGroup, Listed, help_line
from truepass.plugins import Command

DECLARED = [*COMMANDS, *commands(), *LAST]


def _first_paragraph(function: Any) -> str:
    if isinstance(function, typer.Typer):
        text = function.info.help
        assert isinstance(text, str)
    else:
        text = inspect.getdoc(function) or ""
    return " ".join(text.split("\n\n")[0].split())


@pytest.mark.parametrize("command", DECLARED, ids=lambda c: c.name)
def test_a_declared_help_line_is_the_first_paragraph_of_the_commands_docstring(
    command: Command,
) -> None:
    assert help_line(command) == _first_paragraph(command.load())


def _listing(*args: str) -> str:
    """The help of ``truepass ARGS`` as words: a command's row, wrapped in its column, reads
    ``NAME HELP LINE``."""
    got = CliRunner().invoke(app, [*args, "--help"])
    assert got.exit_code == 0, got.output
    return " ".join(re.sub("[│╭╮╰╯─]", " ", got.output).split())


def test_the_listing_names_every_command_with_its_help_line() -> None:
    top, build = _listing(), _listing("build-suite")
    for command in DECLARED:
        listing = top if command.group is None else build
        assert f"{command.name} {help_line(command)}" in listing, command.name
    assert {c.group for c in DECLARED} == {None, "build-suite"}


PROBE = """
import json, sys
from truepass.cli import main
sys.argv = ["truepass", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit as exc:
    assert exc.code in (0, None), exc.code
print(json.dumps(sorted(sys.modules)))
"""


def _modules_after(*args: str, env: dict[str, str] | None = None) -> set[str]:
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], capture_output=True,
                         text=True, check=True, timeout=300, env=env).stdout  # fmt: skip
    return set(json.loads(out.splitlines()[-1]))


def test_the_listing_imports_no_command_and_none_of_the_heavy_modules() -> None:
    modules = _modules_after("--help")
    for command in DECLARED:
        assert isinstance(command.function, str)
        assert command.function.partition(":")[0] not in modules, command.name
    heavy = {"pydantic", "truepass.runner", "truepass.judged", "truepass.families.registry"}
    assert not heavy & modules
    assert not {m for m in modules if m.startswith("truepass.families.") and m.endswith(".cli")}


def test_a_command_is_imported_when_it_runs() -> None:
    modules = _modules_after("cache", "--help")
    assert "truepass.cli.cache" in modules and "truepass.cli.run" not in modules


def test_the_group_builds_the_command_as_typer_would() -> None:
    group = typer.main.get_command(app)
    assert isinstance(group, LazyGroup)
    assert all(isinstance(c, Listed) for c in group.commands.values() if c.name != "build-suite")
    run = group.loaded()["run"]
    assert not isinstance(run, Listed)
    assert {"--suite", "--solver", "--prompt", "--executor"} <= {
        o for p in run.params for o in p.opts
    }
    assert list(group.loaded()) == [c.name for c in DECLARED if c.group is None] + ["build-suite"]


def test_a_command_named_by_place_must_say_its_help() -> None:
    with pytest.raises(ValueError, match="help line"):
        Command("x", "some.module:function")
    with pytest.raises(ValueError, match="module:function"):
        Command("x", "some.module", help="Does x.")
    assert help_line(Command("x", _first_paragraph)) == ""  # no docstring, no help line


def _documented() -> None:
    """Does a thing.

    And more."""


def test_a_command_given_as_a_function_is_listed_with_its_docstring() -> None:
    assert help_line(Command("x", _documented)) == "Does a thing."


def test_listing_the_suites_imports_no_model_and_no_family(tmp_path: Path) -> None:
    env = dict(os.environ, TRUEPASS_SUITE_CACHE=str(tmp_path))
    assert "pydantic" in _modules_after("suites", env=env)  # listed afresh, then kept
    modules = _modules_after("suites", env=env)
    assert "pydantic" not in modules and "truepass.families.registry" not in modules
    assert not {m for m in modules if m.startswith("truepass.families.") and m.endswith(".family")}
