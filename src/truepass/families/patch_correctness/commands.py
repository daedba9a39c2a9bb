"""Patch-correctness' command, declared without importing it (``truepass --help`` stays quick):
``truepass build-suite patch-correctness`` (docs/patch-correctness-format.md)."""

from __future__ import annotations

from truepass.plugins import Command

COMMANDS = (
    Command("patch-correctness",
            "truepass.families.patch_correctness.cli:patch_correctness_cmd", group="build-suite",
            help="Patches that passed the visible tests in repair runs, labelled correct or "
            "overfitting by the hidden tests, deduplicated on the patched code, with the "
            "reference fixes of the runs' samples. See docs/patch-correctness-format.md."),
)  # fmt: skip
