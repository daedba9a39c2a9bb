"""Patch-correctness prompts (template ``patch_correctness.j2``).

A prompt shows k demonstrations (buggy code, a patch, and its label) and then the target's buggy
code and patch. The target's label, provenance and solver never reach a prompt: only its code
and diff are passed to the template (and the leak guard of every model call,
:mod:`truepass.prompts.guard`, refuses a prompt that holds the family's answer key anyway).
"""

from __future__ import annotations

from pathlib import Path

from truepass.prompts.templating import load_template, render_messages

TEMPLATE = "patch_correctness.j2"


def build_patch_correctness_messages(
    buggy: dict[str, str],
    diff: str,
    demonstrations: list[tuple[dict[str, str], str, str]],
    template_dir: Path | None = None,
) -> list[dict[str, str]]:
    """Chat messages asking whether ``diff`` (applied to ``buggy``) is correct or overfitting;
    ``demonstrations`` are (buggy files, diff, label) triples, shown in that order."""
    variables = {
        "buggy": buggy,
        "diff": diff,
        "demonstrations": [{"buggy": b, "diff": d, "label": lab} for b, d, lab in demonstrations],
    }
    return render_messages(load_template(TEMPLATE, template_dir), variables)
