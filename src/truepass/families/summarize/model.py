"""A model solver on a summarisation sample: k demonstrations through the leakage guard, one
request, the summary read out of the answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from truepass.answers import Answer
from truepass.families.summarize.prompts import build_summarize_messages
from truepass.families.summarize.schema import SummarizeSample
from truepass.prompts.retrieval import Candidate, Retriever, pool_retriever
from truepass.solvers.llm import ask_once, demonstration_context

if TYPE_CHECKING:
    from truepass.solvers.base import SolveContext
    from truepass.solvers.capabilities import Demonstrating, ModelAsker

_FENCE = re.compile(r"^```\w*\s*$")


SPARE = 3  # candidates asked for beyond k, in case some repeat the target's summary


def _words(text: str) -> str:
    return " ".join(text.split())


def candidate(sample: SummarizeSample) -> Candidate:
    return Candidate(
        id=sample.id, text=sample.code, project=sample.project, timestamp=sample.timestamp
    )


def retriever_for(pool: Sequence[Any], method: str = "bm25") -> Retriever:
    """The run's index over its demonstration pool (the suite's samples)."""
    return pool_retriever(pool, candidate, method)


def read_summary(text: str) -> tuple[str | None, str, str]:
    """The summary in a model's answer: its first non-empty line outside code fences, quotes
    and docstring marks stripped. Returns (summary or None, parse kind, detail)."""
    for raw in text.splitlines():
        line = raw.strip().strip('"').strip("'").strip()
        if not line or _FENCE.match(line):
            continue
        line = re.sub(r"^(summary|docstring)\s*:\s*", "", line, flags=re.I).strip()
        if line:
            return line, "first-line", ""
    return None, "none", "the answer holds no text"


def ask_for_summary(
    family: Demonstrating,
    solver: ModelAsker,
    sample: SummarizeSample,
    attempt: int,
    ctx: SolveContext,
) -> Answer:
    """One attempt; the demonstrations shown and what the guard removed go into ``meta``."""
    pool = ctx.pool
    by_id = {s.id: s for s in pool}
    context, demonstrations = demonstration_context(family, solver)
    shown: list[tuple[str, str]] = []
    if solver.shots:
        # a demonstration whose summary is the target's own, or that holds it (the leak guard
        # would refuse the prompt), would hand over the answer: ask for a few more and drop
        # those (counted as "same-summary")
        target, key = _words(sample.docstring), family.answer_key(sample)
        selection = retriever_for(pool, solver.options.retrieval).select(
            candidate(sample), solver.shots + SPARE, same_project=context == "project"
        )
        demos = [by_id[c.id] for c in selection.shown]
        same = [
            d
            for d in demos
            if _words(d.docstring) == target or key.found_in(f"{d.code}\n{d.docstring}")
        ]
        kept = [d for d in demos if d not in same][: solver.shots]
        shown = [(d.code, d.docstring) for d in kept]
        demonstrations |= selection.record([d.id for d in kept], {"same-summary": len(same)})
    messages = build_summarize_messages(sample.code, shown, solver.options.template_dir)
    summary, meta, usage = ask_once(
        solver, messages, read_summary, demonstrations, attempt=attempt, sample=sample, ctx=ctx
    )
    if summary is None:
        return Answer(no_patch=True, meta=meta, usage=usage)
    return Answer(text=summary, meta=meta, usage=usage)
