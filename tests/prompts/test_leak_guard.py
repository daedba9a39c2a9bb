"""The leak guard's rules (``AnswerKey`` and ``prompts/guard.py``), apart from any family."""

from __future__ import annotations

import pytest

from truepass.families.base import AnswerKey
from truepass.prompts.guard import PromptLeakError, check_no_leaks, find_leaks


def test_a_key_keeps_what_is_telling_and_not_already_shown() -> None:
    key = AnswerKey.distinctive(
        [("  return   the  answer ", "fix"), ("short", "fix"), ("shown in the code", "fix")],
        min_chars=8,
        names=[("test_secret", "hidden"), ("test_visible", "hidden")],
        shown=["x = 'shown  in the\ncode'", "def test_visible(): pass"],
    )
    assert key.passages == {"return the answer": "fix"}
    assert key.names == {"test_secret": "hidden"}


def test_passages_are_found_across_white_space_and_names_only_as_whole_words() -> None:
    key = AnswerKey(
        passages={"return the answer": "fix"}, names={"test_low": "hidden", "a/b-": "id"}
    )
    assert key.found_in("return\n    the answer") == ["fix: 'return the answer'"]
    assert key.found_in("test_lower and xa/b-") == []
    assert key.found_in("FAILED t.py::test_low - boom; a/b-") == [
        "hidden: 'test_low'",
        "id: 'a/b-'",
    ]


def test_the_guard_checks_every_message_up_to_the_models_own_answers() -> None:
    key = AnswerKey(passages={"return the answer": "fix"})
    messages = [
        {"role": "user", "content": "fix it"},
        {"role": "assistant", "content": "return the answer"},
        {"role": "user", "content": "still failing"},
    ]
    assert find_leaks(messages, key) == ["fix: 'return the answer'"]
    assert find_leaks(messages, key, answers_from=1) == []
    with pytest.raises(PromptLeakError, match="the prompt for sample 's' leaks fix"):
        check_no_leaks(messages, key, "s")
    check_no_leaks(messages, key, "s", answers_from=1)
    many = AnswerKey(names={f"test_{i}": "hidden" for i in range(5)})
    text = [{"role": "user", "content": " ".join(f"test_{i}" for i in range(5))}]
    with pytest.raises(PromptLeakError, match=r"\(\+2 more\)"):
        check_no_leaks(text, many, "s")
