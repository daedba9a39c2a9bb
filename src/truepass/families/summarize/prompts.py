"""Summarisation prompts (template ``summarize.j2``).

A prompt shows k demonstrations (a function and its reference summary) and then the target
function without its docstring. The target's reference summary never reaches a template: only
its code is passed (and the leak guard of every model call, :mod:`truepass.prompts.guard`,
refuses a prompt that holds it anyway).
"""

from __future__ import annotations

from pathlib import Path

from truepass.prompts.templating import load_template, render_messages

TEMPLATE = "summarize.j2"


def build_summarize_messages(
    code: str, demonstrations: list[tuple[str, str]], template_dir: Path | None = None
) -> list[dict[str, str]]:
    """Chat messages asking for a summary of ``code``; ``demonstrations`` are (code, summary)
    pairs, best first (shown in that order)."""
    variables = {
        "code": code,
        "demonstrations": [{"code": c, "summary": s} for c, s in demonstrations],
    }
    return render_messages(load_template(TEMPLATE, template_dir), variables)
