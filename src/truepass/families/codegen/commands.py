"""Codegen's commands, declared without importing them (``truepass --help`` stays quick):
``truepass harden`` (EvalPlus-style hidden tests, docs/harden.md) and ``truepass explain``
(explained demonstrations, docs/codegen-format.md)."""

from __future__ import annotations

from truepass.plugins import Command

COMMANDS = (
    Command("harden", "truepass.families.codegen.cli_harden:harden_cmd", help="Add hidden "
            "tests that bite to a codegen suite (type-aware input mutation, the canonical "
            "solution as oracle, minimised against mutants of it). See docs/harden.md."),
    Command("explain", "truepass.families.codegen.cli_explain:explain_cmd", help="Ask a model "
            "for the reasoning and strategy behind each problem's reference solution and write "
            "the suite with them (field `explanation`), for explained demonstrations: `truepass "
            "run --suite OUT --shots 1 --context explained`. Answers come from the response "
            "cache when asked before, so running it again asks only for what is missing. See "
            "docs/codegen-format.md."),
)  # fmt: skip
