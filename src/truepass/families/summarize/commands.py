"""Summarize's command, declared without importing it (``truepass --help`` stays quick):
``truepass build-suite summarize`` (docs/summarize-format.md)."""

from __future__ import annotations

from truepass.plugins import Command

COMMANDS = (
    Command("summarize", "truepass.families.summarize.cli:summarize_cmd", group="build-suite",
            help="Functions with their docstrings as code summarisation samples, with the "
            "study's filters (no test functions or test files, no dunder methods, a docstring "
            "of at most 500 words). The reference summary is the docstring's first paragraph. "
            "See docs/summarize-format.md."),
)  # fmt: skip
