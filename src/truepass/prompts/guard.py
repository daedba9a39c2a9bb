"""The prompt-leak guard: no model prompt may hold any of its sample's answer key.

Every family says what its answer key is
(:meth:`truepass.solvers.capabilities.Prompted.answer_key`: the
hidden tests and the reference fix of a repair sample, the reference summary, the review's own
dialogue, ...), and every model call goes through
:meth:`truepass.solvers.llm.LLMSolver.ask`, which checks its messages here before the model sees
them. Prompt builders never hand the answer key to a template; this guard makes sure nothing
slips through anyway (a test output from a run of the hidden tests, a demonstration that repeats
the target's answer), for every family, built in or not.

What is checked: every message, demonstrations included, up to where a multi-round prompt
replays the model's own earlier answers (``answers_from``): those, and what came of them (the
feedback on them), may rightly hold the answer key.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict, Field

from truepass.errors import TruepassError


def words(text: str) -> str:
    """``text`` with every run of white space one space: how the leak guard compares texts."""
    return " ".join(text.split())


def _holds_name(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


class AnswerKey(BaseModel):
    """What of a sample's answer key no model prompt may show
    (:meth:`~truepass.solvers.capabilities.Prompted.answer_key`), each
    piece mapped to where it comes from (named when a prompt is refused).

    A passage is found anywhere in a text once white space is normalised (:func:`words`); a name
    (an identifier such as a hidden test's) only as a whole word. Build one with
    :meth:`distinctive`, which keeps only what is telling and not already shown.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    passages: dict[str, str] = Field(
        default_factory=dict, description="passage (white space normalised) -> where it is from"
    )
    names: dict[str, str] = Field(
        default_factory=dict, description="identifier, found as a whole word -> where it is from"
    )

    @classmethod
    def distinctive(
        cls,
        passages: Iterable[tuple[str, str]] = (),
        *,
        min_chars: int = 0,
        names: Iterable[tuple[str, str]] = (),
        shown: Sequence[str] = (),
    ) -> AnswerKey:
        """A key of the (text, where) ``passages`` at least ``min_chars`` long once white space
        is normalised, and of the (name, where) ``names``; a piece that ``shown`` (what the
        prompt may show of the sample: its own inputs) already holds is left out, since showing
        it gives nothing away. A piece from two places keeps the last one's name."""
        seen = words("\n".join(shown))
        kept = {w: where for text, where in passages if len(w := words(text)) >= min_chars}
        return cls(
            passages={w: where for w, where in kept.items() if w not in seen},
            names={n: where for n, where in names if not _holds_name(seen, n)},
        )

    def found_in(self, text: str) -> list[str]:
        """What of the key ``text`` holds, as ``where: 'piece'`` (empty: nothing)."""
        flat = words(text)
        found = [f"{where}: {p!r}" for p, where in self.passages.items() if p in flat]
        found += [f"{where}: {n!r}" for n, where in self.names.items() if _holds_name(text, n)]
        return found


class PromptLeakError(TruepassError):
    """A prompt holds some of its sample's answer key (a harness bug): the model is not asked."""


def find_leaks(
    messages: Sequence[dict[str, str]], key: AnswerKey, *, answers_from: int | None = None
) -> list[str]:
    """What of ``key`` appears in ``messages`` (empty when nothing leaked), as ``where:
    'piece'``. ``answers_from`` is the index of the first message that replays the model's own
    earlier answer; it and the messages after it are not checked (None: all are)."""
    shown = messages[:answers_from] if answers_from is not None else messages
    return key.found_in("\n".join(m["content"] for m in shown))


def check_no_leaks(
    messages: Sequence[dict[str, str]],
    key: AnswerKey,
    sample_id: str,
    *,
    answers_from: int | None = None,
) -> None:
    """Raise :class:`PromptLeakError` if ``messages`` show any of the answer key ``key`` of the
    sample ``sample_id`` (see :func:`find_leaks`)."""
    found = find_leaks(messages, key, answers_from=answers_from)
    if found:
        shown = "; ".join(found[:3]) + (f" (+{len(found) - 3} more)" if len(found) > 3 else "")
        raise PromptLeakError(f"the prompt for sample '{sample_id}' leaks {shown}")
