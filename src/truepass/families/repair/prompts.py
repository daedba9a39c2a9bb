"""Build the chat messages of a repair prompt: pick the variant, fit the budget, render."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath
from typing import Any, Literal, get_args

from truepass.errors import InputError
from truepass.families.repair import languages
from truepass.families.repair.context import (
    called_by_tests,
    split_units,
    trim_files,
    truncate_middle,
)
from truepass.families.repair.schema import FaultLocation, RepairSample
from truepass.prompts.templating import fence, load_template, render_messages

Variant = Literal["code-only", "description", "feedback", "root-cause"]
VARIANTS: tuple[str, ...] = get_args(Variant)
MULTI_TURN = frozenset({"feedback"})
LANGUAGES = {
    ".py": "python", ".pyi": "python", ".java": "java", ".toml": "toml", ".json": "json",
    ".md": "markdown",
}  # fmt: skip
Messages = list[dict[str, str]]


def template_name(variant: str) -> str:
    """File name of a variant's template (``repair-<variant>.j2``)."""
    return f"repair-{variant}.j2"


def build_repair_messages(
    sample: RepairSample,
    variant: str,
    *,
    failing_output: str,
    history: Sequence[tuple[str, str]] = (),
    focus: list[FaultLocation] | None = None,
    token_budget: int,
    count_tokens: Callable[[str], int],
    template_dir: Path | None = None,
) -> Messages:
    """The chat messages (``[{"role": ..., "content": ...}, ...]``) asking a model to repair
    ``sample``.

    Args:
        sample: the repair sample. Only its buggy files, its visible tests and its description
            reach the template; the hidden tests, ``fix``, ``known_overfit`` and ``fault``
            never do (and the leak guard of every model call, :mod:`truepass.prompts.guard`,
            checks the result against the family's answer key).
        variant: ``code-only``, ``description`` or ``feedback`` (the template
            ``repair-<variant>.j2``).
        failing_output: output of the visible tests run on the buggy code.
        history: earlier rounds of the ``feedback`` variant, oldest first, as (the model's
            answer, what came of it: the failing test output or why no patch was found).
        focus: fault locations to show as a localisation hint and to rank the code by; None
            ranks the code by the functions the failing visible tests call.
        token_budget: the most tokens the messages should hold in all. Code is trimmed unit by
            unit and test output from its middle to fit; the most relevant code unit is kept
            even when it alone is over the budget.
        count_tokens: the model's token counter (text -> number of tokens).
        template_dir: a directory whose templates override the bundled ones of the same name.

    Raises:
        InputError: unknown variant, or a missing or broken template (the message names the
            file and line).
        ValueError: ``history`` given for a single-turn variant.
    """
    if variant not in VARIANTS:
        raise InputError(f"unknown prompt variant '{variant}' (known: {', '.join(VARIANTS)})")
    if history and variant not in MULTI_TURN:
        raise ValueError(f"prompt variant '{variant}' is single-turn; it takes no history")
    template = load_template(template_name(variant), template_dir)
    context = _base_context(sample, variant, focus)

    def tokens(messages: Messages) -> int:
        return sum(count_tokens(m["content"]) for m in messages)

    def render(
        files: list[dict[str, Any]], output: str, cut: bool, rounds: list[dict[str, Any]]
    ) -> Messages:
        return render_messages(
            template,
            {
                **context,
                "files": files,
                "failing_output": output,
                "output_truncated": cut,
                "history": rounds,
            },
        )

    per_round = max(token_budget // 8, 16)
    rounds: list[dict[str, Any]] = []
    for answer, feedback in history:
        text, cut = truncate_middle(feedback, per_round, count_tokens)
        rounds.append({"answer": answer, "feedback": text, "truncated": cut})
    # The fixed text, measured as if code and output were cut (the notes saying so included).
    bare = [_file_view(p, "", 1) for p in sample.files]
    overhead = tokens(render(bare, "", True, rounds))
    while len(rounds) > 1 and overhead > token_budget // 2:
        rounds.pop(0)  # the oldest rounds go first when the conversation outgrows the budget
        overhead = tokens(render(bare, "", True, rounds))
    avail = max(token_budget - overhead, 0)
    code_full = sum(count_tokens(t) for t in sample.files.values())
    output, cut = failing_output, False
    if code_full + count_tokens(failing_output) > avail:
        output, cut = truncate_middle(
            failing_output, max(avail // 3, avail - code_full), count_tokens
        )
    trimmed = trim_files(
        sample.files,
        avail - count_tokens(output),
        count_tokens,
        focus=focus,
        called=called_by_tests(sample.tests.visible, failing_output),
    )
    files = [_file_view(f.path, f.content, f.omitted) for f in trimmed]
    return render(files, output, cut, rounds)


def _file_view(path: str, content: str, omitted: int) -> dict[str, Any]:
    return {
        "path": path,
        "content": content,
        "language": LANGUAGES.get(PurePosixPath(path).suffix, ""),
        "fence": fence(content),
        "omitted": omitted,
    }


def _base_context(
    sample: RepairSample, variant: str, focus: list[FaultLocation] | None
) -> dict[str, Any]:
    """What every template sees besides files, output and history: public fields only."""
    hints = []
    for loc in focus or []:
        units = [
            u
            for u in split_units(loc.file, sample.files.get(loc.file, ""))
            if set(u.lines) & set(loc.lines) and u.kind in ("function", "method")
        ]
        hints.append({"file": loc.file, "lines": list(loc.lines), "units": [u.name for u in units]})
    return {
        "variant": variant,
        "sample_id": sample.id,
        "language_name": languages.get(sample.language).title,
        "description": sample.description,
        "focus": hints,
        "visible_tests": [_file_view(p, t, 0) for p, t in sample.tests.visible.items()],
        "tests_pass": sample.tests.visible_role == "regression",
    }
