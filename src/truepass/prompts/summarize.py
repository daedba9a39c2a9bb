"""Summarisation prompts (template ``summarize.j2``) and the leak guard for them.

A prompt shows k demonstrations (a function and its reference summary) and then the target
function without its docstring. The target's reference summary never reaches a prompt:
:func:`build_summarize_messages` refuses any message that holds it.
"""

from __future__ import annotations

from pathlib import Path

from truepass.prompts.guard import PromptLeakError
from truepass.prompts.templating import load_template, render_messages

TEMPLATE = "summarize.j2"
MIN_LEAK_CHARS = 12  # a reference this short ("Return x.") may occur by chance


def build_summarize_messages(
    sample_id: str,
    code: str,
    reference: str,
    demonstrations: list[tuple[str, str]],
    template_dir: Path | None = None,
) -> list[dict[str, str]]:
    """Chat messages asking for a summary of ``code``; ``demonstrations`` are (code, summary)
    pairs, best first (shown in that order)."""
    variables = {
        "code": code,
        "demonstrations": [{"code": c, "summary": s} for c, s in demonstrations],
    }
    messages = render_messages(load_template(TEMPLATE, template_dir), variables)
    ref = " ".join(reference.split())
    if len(ref) >= MIN_LEAK_CHARS and any(ref in " ".join(m["content"].split()) for m in messages):
        raise PromptLeakError(f"the prompt for {sample_id} holds its reference summary")
    return messages
