"""A model solver on a review sample: k demonstrations through the leakage guard, one request,
the decision and its rationale read out of the answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from truepass.answers import Answer, Label
from truepass.families.review.prompts import Shown, build_review_messages
from truepass.families.review.schema import ReviewSample
from truepass.prompts.retrieval import Candidate, Retriever, body_hash, pool_retriever
from truepass.solvers.llm import ask_once, demonstration_context

if TYPE_CHECKING:
    from truepass.solvers.base import SolveContext
    from truepass.solvers.capabilities import Demonstrating, ModelAsker

_DECISION_LINE = re.compile(r"^[\W_]*decision[\W_]*:(.*)$", re.I)
_RATIONALE = re.compile(r"^[\W_]*(rationale|reason(ing)?)[\W_]*:\s*", re.I)
_ACCEPT = re.compile(r"\b(accept\w*|approve\w*)\b", re.I)
_REJECT = re.compile(r"\b(reject\w*|decline\w*)\b", re.I)

SPARE = 3  # candidates asked for beyond k, in case some repeat the target's dialogue


def candidate(sample: ReviewSample) -> Candidate:
    """What retrieval matches on: the description and the diff; near-duplicates share a diff."""
    return Candidate(
        id=sample.id,
        text=f"{sample.description}\n{sample.change.diff}",
        project=sample.project,
        timestamp=sample.timestamp,
        body_hash=body_hash(sample.change.diff),
    )


def retriever_for(pool: Sequence[Any], method: str = "bm25") -> Retriever:
    """The run's index over its demonstration pool (the suite's samples)."""
    return pool_retriever(pool, candidate, method)


def read_decision(text: str) -> tuple[Label | None, str, str]:
    """The decision in a model's answer: the first line starting ``Decision:`` (else the first
    non-empty line) must name exactly one of accept (approve) and reject (decline); the rest
    of the answer is the rationale. Returns (label or None, parse kind, detail)."""
    lines = text.splitlines()
    at = next((i for i, ln in enumerate(lines) if _DECISION_LINE.match(ln.strip())), None)
    kind = "decision-line"
    if at is None:
        at = next((i for i, ln in enumerate(lines) if ln.strip()), None)
        kind = "first-line"
        if at is None:
            return None, "none", "the answer holds no text"
    line = lines[at].strip()
    found = _DECISION_LINE.match(line)
    said = found.group(1) if found else line
    accept, reject = bool(_ACCEPT.search(said)), bool(_REJECT.search(said))
    if accept == reject:
        what = "both accept and reject" if accept else "neither accept nor reject"
        return None, "none", f"the decision line names {what}: {line[:120]!r}"
    rest = [ln for ln in lines[at + 1 :]]
    rationale = _RATIONALE.sub("", "\n".join(rest).strip(), count=1).strip()
    return Label(decision="accept" if accept else "reject", rationale=rationale), kind, ""


def _shown(demo: ReviewSample, context: str) -> Shown:
    dialogue = (
        [(t.role, t.text, t.turning_point) for t in demo.dialogue] if context == "dialogue" else []
    )
    return Shown(demo.change.diff, demo.description, demo.decision, dialogue)


def ask_for_decision(
    family: Demonstrating,
    solver: ModelAsker,
    sample: ReviewSample,
    attempt: int,
    ctx: SolveContext,
) -> Answer:
    """One attempt; the demonstrations shown and what the guard removed go into ``meta``."""
    pool = ctx.pool
    by_id = {s.id: s for s in pool}
    context, demonstrations = demonstration_context(family, solver)
    shown: list[Shown] = []
    if solver.shots:
        # a demonstration that repeats one of the target's turns (its answer key) would hand
        # over its review: ask for a few more and drop those (counted as "same-dialogue")
        key = family.answer_key(sample)
        selection = retriever_for(pool, solver.options.retrieval).select(
            candidate(sample), solver.shots + SPARE, same_project=True
        )
        demos = [by_id[c.id] for c in selection.shown]
        clash = [
            d for d in demos if key.found_in("\n".join([d.description, d.change.diff]
                                                       + [t.text for t in d.dialogue]))
        ]  # fmt: skip
        kept = [d for d in demos if d not in clash][: solver.shots]
        shown = [_shown(d, context) for d in kept]
        demonstrations |= selection.record([d.id for d in kept], {"same-dialogue": len(clash)})
        demonstrations["decisions"] = [d.decision for d in kept]
    messages = build_review_messages(
        sample.change.diff,
        dict(sample.change.files),
        sample.description,
        shown,
        solver.options.template_dir,
    )
    label, meta, usage = ask_once(
        solver, messages, read_decision, demonstrations, attempt=attempt, sample=sample, ctx=ctx
    )
    if label is None:
        return Answer(no_patch=True, meta=meta, usage=usage)
    return Answer(label=label, meta=meta, usage=usage)
