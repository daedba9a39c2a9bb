"""Code-review prompts (template ``review.j2``).

A prompt shows k demonstrations, each a change (its diff and description) answered with the
review's outcome: ``Decision: accept|reject`` and, with ``--context dialogue``, the whole review
dialogue as the rationale. Then the target: its diff, the files it touches (before the change)
and its description. The target's dialogue and decision never reach a template (and the leak
guard of every model call, :mod:`truepass.prompts.guard`, refuses a prompt that holds one of its
turns anyway).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from truepass.prompts.templating import load_template, render_messages

TEMPLATE = "review.j2"


@dataclass(frozen=True)
class Shown:
    """One demonstration as the template shows it; ``dialogue`` is (role, text, turning point)
    triples, empty for ``--context decision-only``."""

    diff: str
    description: str
    decision: str
    dialogue: list[tuple[str, str, bool]] = field(default_factory=list)


def build_review_messages(
    diff: str,
    files: dict[str, str],
    description: str,
    demonstrations: Sequence[Shown],
    template_dir: Path | None = None,
) -> list[dict[str, str]]:
    """Chat messages asking for a decision on a change; ``demonstrations`` best first."""
    variables = {
        "diff": diff,
        "files": [{"path": p, "content": c} for p, c in sorted(files.items())],
        "description": description,
        "demonstrations": [
            {
                "diff": d.diff,
                "description": d.description,
                "decision": d.decision,
                "dialogue": [
                    {"role": r, "text": t, "turning_point": tp} for r, t, tp in d.dialogue
                ],
            }
            for d in demonstrations
        ],
    }
    return render_messages(load_template(TEMPLATE, template_dir), variables)
