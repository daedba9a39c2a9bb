"""The prompt-leak guard: no model prompt may hold any of its sample's answer key.

Every family says what its answer key is (:meth:`truepass.families.base.Family.answer_key`: the
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

from collections.abc import Sequence
from typing import TYPE_CHECKING

from truepass.errors import TruepassError

if TYPE_CHECKING:
    from truepass.families.base import AnswerKey


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
