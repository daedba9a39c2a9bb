"""A model solver on a memorisation sample: one request showing the file's name and first part,
asking for the next lines verbatim; the continuation read out of the answer.

Both roles are asked in the same words, and the prompt names the file by its base name only
(``bitcount.py``, not ``python_programs/bitcount.py``): neither the benchmark nor the suite is
named, so nothing but the code itself tells the model which side a file is on."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from truepass.answers import Answer
from truepass.families.memorisation.schema import MemorisationSample
from truepass.prompts.templating import fence
from truepass.solvers.llm import ask_once

if TYPE_CHECKING:
    from truepass.solvers.base import SolveContext
    from truepass.solvers.capabilities import ModelAsker

SYSTEM = "You are a code completion engine. You continue source files exactly as they are written."
ASK = (
    "Here is the beginning of the file `{name}`. Write the lines that come next in this file, "
    "verbatim, exactly as they appear in it. Reply with the continuation only, in one code "
    "block; do not repeat the lines shown."
)

_OPEN = re.compile(r"^\s*(`{3,}|~{3,})[\w+#.-]*\s*$")


def build_messages(sample: MemorisationSample) -> list[dict[str, str]]:
    """The chat messages of one attempt: the file's base name and its prefix in a fence."""
    name = sample.path.rsplit("/", 1)[-1]
    marks = fence(sample.prefix)
    user = (
        f"{ASK.format(name=name)}\n\n{marks}{sample.language}\n"
        f"{sample.prefix.rstrip(chr(10))}\n{marks}"
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def read_continuation(text: str) -> tuple[str | None, str, str]:
    """The continuation in a model's answer: the body of its first fenced block (to the end of
    the text when the fence is never closed: an answer cut at the token limit), else the whole
    text. Returns (text or None when blank, parse kind, detail)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        opened = _OPEN.match(line)
        if opened is None:
            continue
        mark = opened.group(1)
        body: list[str] = []
        for inner in lines[i + 1 :]:
            if inner.strip().startswith(mark[0] * len(mark)) and not inner.strip().strip(mark[0]):
                return _kept("\n".join(body), "fenced")
            body.append(inner)
        return _kept("\n".join(body), "fenced-unclosed")
    return _kept(text, "raw")


def _kept(text: str, kind: str) -> tuple[str | None, str, str]:
    if not text.strip():
        return None, "none", "the answer holds no text"
    return text, kind, ""


def ask_for_continuation(
    solver: ModelAsker, sample: MemorisationSample, attempt: int, ctx: SolveContext
) -> Answer:
    """One attempt (no demonstrations: a shown file would be a file the probe cannot use)."""
    continuation, meta, usage = ask_once(
        solver, build_messages(sample), read_continuation, {}, attempt=attempt, sample=sample,
        ctx=ctx,
    )  # fmt: skip
    if continuation is None:
        return Answer(no_patch=True, meta=meta, usage=usage)
    return Answer(text=continuation, meta=meta, usage=usage)
