"""Codegen prompts (template ``codegen.j2``) and the leak guard for them.

A codegen prompt shows the problem (signature and docstring); the visible cases are the
problem's own examples, already in its docstring for HumanEval. Hidden cases and the canonical
solution never reach a prompt: :func:`build_codegen_messages` refuses any message that holds the
canonical solution's body.
"""

from __future__ import annotations

from pathlib import Path

from truepass.families.codegen.schema import CodegenSample
from truepass.prompts.guard import PromptLeakError
from truepass.prompts.templating import load_template, render_messages

TEMPLATE = "codegen.j2"


def build_codegen_messages(
    sample: CodegenSample, template_dir: Path | None = None
) -> list[dict[str, str]]:
    """Chat messages asking for ``sample.entry_point``."""
    messages = render_messages(load_template(TEMPLATE, template_dir), {"prompt": sample.prompt})
    body = sample.canonical_solution.strip()
    if len(body) > 40 and any(body in m["content"] for m in messages):
        raise PromptLeakError(f"the prompt for {sample.id} holds the canonical solution")
    return messages
