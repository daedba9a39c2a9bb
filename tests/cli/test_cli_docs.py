"""docs/cli.md cannot drift from the commands: every long option a command's ``--help`` lists
appears in the synopsis of that command's section.

A section is a ``## `truepass NAME ...` `` heading and the text up to the next ``## `` heading;
its synopsis is its first fenced block. A subcommand has a section of its own
(``build-suite summarize``) or shares its group's (``cache stats|clear`` under ``cache``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main

from truepass.cli import app

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
_HEADING = re.compile(r"^## `truepass (?P<name>[\w-]+(?: [a-z][\w|-]*)*)[^`]*`\s*$", re.MULTILINE)
_FENCE = re.compile(r"^```[^\n]*\n(?P<body>.*?)^```", re.MULTILINE | re.DOTALL)


def sections(doc: str) -> dict[str, str]:
    """Command name (its words, ``build-suite summarize``) -> its section's text (heading
    excluded)."""
    out: dict[str, str] = {}
    heads = list(_HEADING.finditer(doc))
    for head in heads:
        rest = doc[head.end() :]
        following = re.search(r"^## ", rest, re.MULTILINE)
        out[head["name"]] = rest[: following.start()] if following else rest
    return out


def _covers(heading: str, path: str) -> bool:
    """Does the heading's command (``cache stats|clear``) name ``path`` (``cache clear``)?"""
    words, want = heading.split(), path.split()
    return len(words) == len(want) and all(
        w in h.split("|") for h, w in zip(words, want, strict=True)
    )


def section_of(doc: str, path: str) -> str:
    """The section of command ``path``: its own, else its group's ('' when there is none)."""
    found = sections(doc)
    for candidate in (path, path.split()[0]):
        for heading, text in found.items():
            if _covers(heading, candidate):
                return text
    return ""


def synopsis(section: str) -> str:
    """The first fenced block of a section ('' when it has none)."""
    block = _FENCE.search(section)
    return block["body"] if block else ""


def undocumented(doc: str, name: str, options: Iterable[str]) -> list[str]:
    """The options missing from the synopsis of command ``name`` (all of them when the command
    has no section). ``--cache`` is not found in ``--check-cache`` or ``--cache-dir``."""
    text = synopsis(section_of(doc, name))
    return [o for o in options if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", text)]


def commands(command: Any = None, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    """Every command of the app (click commands: typer's own copy of click), by its words after
    ``truepass`` (``cache stats``)."""
    command = command or typer.main.get_command(app)
    if hasattr(command, "commands"):  # a group (truepass's import each command when asked)
        subs = command.loaded() if hasattr(command, "loaded") else command.commands
        for name, sub in subs.items():
            yield from commands(sub, (*path, name))
    else:
        yield " ".join(path), command


def long_options(command: Any) -> list[str]:
    """The long options ``--help`` lists (both sides of an on/off pair; ``--help`` aside)."""
    return [
        o
        for p in command.params
        if p.param_type_name == "option" and not p.hidden
        for o in (*p.opts, *p.secondary_opts)
        if o.startswith("--") and o != "--help"
    ]


COMMANDS = dict(commands())


def test_every_command_has_a_section() -> None:
    doc = DOC.read_text(encoding="utf-8")
    missing = sorted(path for path in COMMANDS if not section_of(doc, path))
    assert not missing, f"docs/cli.md has no '## `truepass NAME`' section for {missing}"


@pytest.mark.parametrize("path", sorted(COMMANDS))
def test_every_option_is_in_the_synopsis_of_its_command(path: str) -> None:
    options = long_options(COMMANDS[path])
    missing = undocumented(DOC.read_text(encoding="utf-8"), path, options)
    assert not missing, f"docs/cli.md: the synopsis of `truepass {path}` lacks {missing}"


def test_the_commands_are_all_seen() -> None:
    assert {"run", "judge", "estimate", "check-suite", "harden", "cache stats"} <= set(COMMANDS)
    assert {"--no-test-selection", "--executor", "--prompt"} <= set(long_options(COMMANDS["run"]))


DOC_SAMPLE = """# Command line
## `truepass x`
```
truepass x --suite NAME [--check-cache FILE|off] [--a|--no-a]
```
Prose naming `--prose-only`.

## `truepass y DIR`
Prints something.
"""


def test_the_check_fails_on_a_missing_option() -> None:
    assert undocumented(DOC_SAMPLE, "x", ["--suite", "--check-cache", "--a", "--no-a"]) == []
    assert undocumented(DOC_SAMPLE, "x", ["--suite", "--no-such-option"]) == ["--no-such-option"]
    # a prefix or suffix of a documented option, or an option only in the prose, is missing
    assert undocumented(DOC_SAMPLE, "x", ["--cache", "--check", "--prose-only"]) == [
        "--cache", "--check", "--prose-only",
    ]  # fmt: skip
    assert undocumented(DOC_SAMPLE, "y", ["--out"]) == ["--out"]  # a section without synopsis
    assert undocumented(DOC_SAMPLE, "z", ["--out"]) == ["--out"]  # no section at all
    assert set(sections(DOC_SAMPLE)) == {"x", "y"}
    # a subcommand's own section is the one checked, not its sibling's
    two = "## `truepass g a`\n```\ntruepass g a --one\n```\n## `truepass g b`\n```\ng b\n```\n"
    assert undocumented(two, "g a", ["--one"]) == []
    assert undocumented(two, "g b", ["--one"]) == ["--one"]
