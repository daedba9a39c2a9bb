"""Leakage guard: what a prompt shows must never include a sample's answer key.

The hidden tests, the reference ``fix`` and the ``known_overfit`` patch are the answer key of a
repair sample. Prompt builders never hand them to a template; this guard checks the result
anyway, so that a test output passed in by mistake (say, from a run of the hidden tests) cannot
slip them into a prompt.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from truepass.errors import TruepassError
from truepass.families.repair.schema import RepairSample

MIN_LINE_CHARS = 12


class PromptLeakError(TruepassError):
    """A rendered prompt holds hidden-test or reference-fix content (a harness bug)."""


def _lines(text: str) -> Iterable[str]:
    return (ln.strip() for ln in text.splitlines())


def _added_lines(diff: str | None) -> Iterable[str]:
    for ln in (diff or "").splitlines():
        if ln.startswith("+") and not ln.startswith("+++"):
            yield ln[1:].strip()


def answer_key_lines(sample: RepairSample) -> dict[str, str]:
    """Distinctive lines of the answer key, each mapped to where it comes from.

    A line counts only if it is long enough to be telling and is not also in what the model may
    see (the buggy files, the visible tests, the description).
    """
    shown = "\n".join([*sample.files.values(), *sample.tests.visible.values(), sample.description])
    key: dict[str, str] = {}
    for path, text in sample.tests.hidden.items():
        key.update({ln: f"hidden test {path}" for ln in _lines(text)})
    key.update({ln: "reference fix" for ln in _added_lines(sample.fix)})
    key.update({ln: "known overfit patch" for ln in _added_lines(sample.known_overfit)})
    return {
        ln: where
        for ln, where in key.items()
        if len(ln) >= MIN_LINE_CHARS and ln not in shown and not ln.startswith("#")
    }


def hidden_test_names(sample: RepairSample) -> set[str]:
    """Names of the hidden test functions that no visible test shares."""
    visible = "\n".join(sample.tests.visible.values())
    names = set()
    for text in sample.tests.hidden.values():
        names |= set(re.findall(r"def (test\w+)", text))
    return {n for n in names if n not in visible}


def find_leaks(messages: list[dict[str, str]], sample: RepairSample) -> list[str]:
    """What of the answer key appears in ``messages`` (empty when nothing leaked).

    Only the messages before the first assistant turn are checked: later turns carry the
    model's own answers and the feedback on them, which may rightly contain the fix.
    """
    shown: list[str] = []
    for m in messages:
        if m["role"] == "assistant":
            break
        shown.append(m["content"])
    text = "\n".join(shown)
    found = [f"{where}: {ln!r}" for ln, where in answer_key_lines(sample).items() if ln in text]
    found += [
        f"hidden test name {n!r}"
        for n in sorted(hidden_test_names(sample))
        if re.search(rf"\b{re.escape(n)}\b", text)
    ]
    return found


def check_no_leaks(messages: list[dict[str, str]], sample: RepairSample) -> None:
    """Raise :class:`PromptLeakError` if ``messages`` show any of the sample's answer key."""
    found = find_leaks(messages, sample)
    if found:
        shown = "; ".join(found[:3]) + (f" (+{len(found) - 3} more)" if len(found) > 3 else "")
        raise PromptLeakError(f"the prompt for sample '{sample.id}' leaks {shown}")
