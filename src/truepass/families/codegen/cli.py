"""Codegen's commands: ``truepass harden`` (EvalPlus-style hidden tests, docs/harden.md) and
``truepass explain`` (explained demonstrations, docs/codegen-format.md)."""

from __future__ import annotations

from truepass.families.codegen.cli_explain import explain_cmd
from truepass.families.codegen.cli_harden import harden_cmd
from truepass.plugins import Command

COMMANDS = (Command("harden", harden_cmd), Command("explain", explain_cmd))
