"""Code-review prompts (template ``review.j2``) and the leak guard for them.

A prompt shows k demonstrations, each a change (its diff and description) answered with the
review's outcome: ``Decision: accept|reject`` and, with ``--context dialogue``, the whole review
dialogue as the rationale. Then the target: its diff, the files it touches (before the change)
and its description. The target's dialogue never reaches a prompt:
:func:`build_review_messages` refuses any message that holds one of its turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from truepass.prompts.guard import PromptLeakError
from truepass.prompts.templating import load_template, render_messages

TEMPLATE = "review.j2"
MIN_LEAK_CHARS = 20  # a turn this short ("LGTM, thanks!") may occur by chance


@dataclass(frozen=True)
class Shown:
    """One demonstration as the template shows it; ``dialogue`` is (role, text, turning point)
    triples, empty for ``--context decision-only``."""

    diff: str
    description: str
    decision: str
    dialogue: list[tuple[str, str, bool]] = field(default_factory=list)


def _words(text: str) -> str:
    return " ".join(text.split())


def guarded_turns(dialogue: Sequence[str], visible: Sequence[str]) -> list[str]:
    """The target's turns a prompt must not hold: long enough to be telling and not already in
    what the model may see (the target's diff, files and description)."""
    seen = _words("\n".join(visible))
    return [t for t in map(_words, dialogue) if len(t) >= MIN_LEAK_CHARS and t not in seen]


def holds_any(text: str, turns: Sequence[str]) -> bool:
    flat = _words(text)
    return any(t in flat for t in turns)


def build_review_messages(
    sample_id: str,
    diff: str,
    files: dict[str, str],
    description: str,
    dialogue: Sequence[str],
    demonstrations: Sequence[Shown],
    template_dir: Path | None = None,
) -> list[dict[str, str]]:
    """Chat messages asking for a decision on a change; ``dialogue`` is the texts of the
    target's own turns (checked, never shown); ``demonstrations`` best first."""
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
    messages = render_messages(load_template(TEMPLATE, template_dir), variables)
    guarded = guarded_turns(dialogue, [diff, description, *files.values()])
    if any(holds_any(m["content"], guarded) for m in messages):
        raise PromptLeakError(f"the prompt for {sample_id} holds its own review dialogue")
    return messages
