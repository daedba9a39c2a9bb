"""Repair prompts: variants, budgets, feedback rounds, and no leak of the answer key."""

from __future__ import annotations

import pytest
from factories import sample_dict

from truepass.families.repair.family import RepairFamily
from truepass.families.repair.parse import parse_response
from truepass.families.repair.prompts import VARIANTS, build_repair_messages
from truepass.families.repair.schema import FaultLocation, RepairSample
from truepass.patches.apply import apply_diff
from truepass.prompts.guard import PromptLeakError, check_no_leaks
from truepass.suites.loader import load_suite

OUTPUT = """============================= test session starts ==============================
test_clamp.py F.                                                         [100%]
=================================== FAILURES ===================================
__________________________________ test_high ___________________________________

    def test_high():
>       assert clamp(9, 0, 5) == 5
E       assert 0 == 5
E        +  where 0 = clamp(9, 0, 5)

test_clamp.py:5: AssertionError
=========================== short test summary info ============================
FAILED test_clamp.py::test_high - assert 0 == 5
========================= 1 failed, 1 passed in 0.01s ==========================
"""


def chars(text: str) -> int:
    """A stand-in tokenizer: about four characters a token."""
    return (len(text) + 3) // 4


def clamp_sample() -> RepairSample:
    return RepairSample.model_validate(sample_dict())


def build(sample: RepairSample, variant: str = "code-only", **kw) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    kw.setdefault("failing_output", OUTPUT)
    kw.setdefault("token_budget", 4000)
    return build_repair_messages(sample, variant, count_tokens=chars, **kw)


def test_variants_render_system_then_user() -> None:
    s = clamp_sample()
    for variant in VARIANTS:
        msgs = build(s, variant)
        assert [m["role"] for m in msgs] == ["system", "user"]
        user = msgs[1]["content"]
        assert s.files["clamp.py"] in user and "FAILED test_clamp.py::test_high" in user
        assert "```diff" in user and "--- a/clamp.py" in user and "whole fixed file" in user
        assert (s.description in user) == (variant != "code-only")


def test_feedback_rounds_follow_the_first_prompt() -> None:
    s = clamp_sample()
    history = [("```diff\n(first try)\n```", "1 failed: assert 1 == 7"), ("no idea", "no patch")]
    msgs = build(s, "feedback", history=history)
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert msgs[2]["content"] == "```diff\n(first try)\n```"
    assert "assert 1 == 7" in msgs[3]["content"] and "try again" in msgs[3]["content"]
    assert msgs[4]["content"] == "no idea" and "no patch" in msgs[5]["content"]
    with pytest.raises(ValueError, match="single-turn"):
        build(s, "code-only", history=history)


def test_long_feedback_is_cut_and_old_rounds_dropped_to_fit() -> None:
    s = clamp_sample()
    noisy = "".join(f"noise line {i}\n" for i in range(2000))
    history = [(f"answer {i} " * 50, noisy) for i in range(6)]
    msgs = build(s, "feedback", history=history, token_budget=1500)
    assert sum(chars(m["content"]) for m in msgs) <= 1500
    assert "answer 5" in msgs[-2]["content"]  # the latest round is kept
    assert "lines omitted" in msgs[-1]["content"]


def test_focus_is_shown_only_when_given() -> None:
    s = clamp_sample()
    assert "most likely" not in build(s)[1]["content"]
    hint = build(s, focus=[FaultLocation(file="clamp.py", lines=[5])])[1]["content"]
    assert "`clamp.py`, line 5 (in `clamp`)" in hint


def test_budget_is_met_by_trimming_code_and_output() -> None:
    suite = load_suite("mini")
    s = suite.sample("mini-020-two-stack-queue")
    output = "".join(f"log {i}\n" for i in range(500)) + "FAILED test_fifo.py::test_x - boom\n"
    full = build(s, failing_output=output, token_budget=100_000)
    assert "[" not in full[1]["content"].split("```text")[1][:20]  # nothing cut
    for budget in (500, 700, 1000):
        msgs = build(s, failing_output=output, token_budget=budget)
        user = msgs[1]["content"]
        assert sum(chars(m["content"]) for m in msgs) <= budget
        assert "log 0\n" in user and "FAILED test_fifo.py::test_x - boom" in user  # head, tail
    tiny = build(
        s, failing_output=output, token_budget=10, focus=[FaultLocation(file="fifo.py", lines=[38])]
    )
    assert "def is_empty(self) -> bool:" in tiny[1]["content"]
    assert "omitted ..." in tiny[1]["content"]


def _distinctive_lines(sample: RepairSample) -> list[str]:
    """Answer-key lines that a prompt must never show (independent of the guard)."""
    shown = "\n".join([*sample.files.values(), *sample.tests.visible.values(), sample.description])
    key = [ln for t in sample.tests.hidden.values() for ln in t.splitlines()]
    for diff in (sample.fix, sample.known_overfit or ""):
        key += [
            ln[1:] for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")
        ]
    return [ln.strip() for ln in key if len(ln.strip()) >= 8 and ln.strip() not in shown]


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_hidden_test_or_fix_leaks_into_any_prompt(variant: str) -> None:
    for s in [clamp_sample(), *load_suite("mini").samples]:
        visible = "\n".join(s.tests.visible.values())
        history = [("I changed nothing.", "FAILED: 1 failed")] if variant == "feedback" else []
        for budget in (60, 400, 5000):
            msgs = build(s, variant, failing_output=visible, history=history, token_budget=budget)
            text = "\n".join(m["content"] for m in msgs)
            for line in _distinctive_lines(s):
                assert line not in text, (s.id, variant, line)
            for path in s.tests.hidden:
                assert path not in text
            assert s.fix not in text


def guard(sample: RepairSample, messages: list[dict[str, str]]) -> None:
    check_no_leaks(messages, RepairFamily().answer_key(sample), sample.id)


def test_guard_stops_a_prompt_fed_with_hidden_test_output() -> None:
    s = clamp_sample()
    guard(s, build(s))  # the prompt proper holds nothing of the answer key
    hidden = s.tests.hidden["test_clamp_hidden.py"]
    with pytest.raises(PromptLeakError, match="hidden test"):
        guard(s, build(s, failing_output=f"FAILED\n{hidden}"))
    with pytest.raises(PromptLeakError, match="hidden test name: 'test_low'"):
        guard(s, build(s, failing_output="FAILED test_clamp_hidden.py::test_low"))
    page = load_suite("mini").sample("mini-001-paginate")
    with pytest.raises(PromptLeakError, match="reference fix"):
        guard(page, build(page, failing_output="E   hint: start = (page - 1) * per_page"))


def test_the_repair_answer_key_leaves_out_what_the_prompt_may_show() -> None:
    s = clamp_sample()
    key = RepairFamily().answer_key(s)
    assert key.passages["assert clamp(50, 1, 7) == 7"] == "hidden test test_clamp_hidden.py"
    assert key.names == {"test_high_other": "hidden test name", "test_low": "hidden test name"}
    assert "from clamp import clamp" not in key.passages  # the visible tests show it too
    # the lines fix and known_overfit add ("return hi", "return 5") are too short to tell
    assert set(key.passages.values()) == {"hidden test test_clamp_hidden.py"}


def test_a_prompt_a_model_could_answer_parses_back() -> None:
    s = clamp_sample()
    msgs = build(s)
    assert "clamp.py" in msgs[1]["content"]
    answer = f"The upper branch returns lo.\n```diff\n{s.fix}```"
    out = parse_response(answer, s.files)
    assert out.kind == "diff"
    assert apply_diff(s.files, out.answer.diff) == apply_diff(s.files, s.fix)  # type: ignore[union-attr]
