"""Rebuild's command, declared without importing it (``truepass --help`` stays quick):
``truepass build-rebuild`` (docs/rebuild-format.md)."""

from __future__ import annotations

from truepass.plugins import Command

COMMANDS = (
    Command("build-rebuild", "truepass.families.rebuild.cli:build_rebuild_cmd", help="Generate "
            "the hidden behavioural tests of a rebuild task from a gold program (an executable "
            "of a Debian package), recorded from the gold in the sandbox, grown while they add "
            "line coverage, checked by the assertion linter and against dummy programs, and "
            "write the task into OUT/suite.jsonl (its line replaced, others kept). Same gold "
            "and seed, same tests. See docs/rebuild-format.md."),
)  # fmt: skip
