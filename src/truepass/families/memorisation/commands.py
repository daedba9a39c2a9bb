"""Memorisation's command, declared without importing it (``truepass --help`` stays quick):
``truepass build-suite memorisation`` (docs/memorisation-format.md)."""

from __future__ import annotations

from truepass.plugins import Command

COMMANDS = (
    Command("memorisation", "truepass.families.memorisation.cli:memorisation_cmd",
            group="build-suite",
            help="The memorisation probe: the first part of each source file of a suite "
            "(the target) and of control suites the model cannot have seen, with the file's "
            "next lines as the answer. See docs/memorisation-format.md."),
)  # fmt: skip
