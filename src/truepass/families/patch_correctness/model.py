"""A model solver on a patch-correctness sample: k demonstrations through the leakage guard,
chosen by context type, one request, the label read out of the answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from truepass.answers import Answer, Label
from truepass.families.patch_correctness.prompts import build_patch_correctness_messages
from truepass.families.patch_correctness.schema import PatchCorrectnessSample
from truepass.prompts.retrieval import Candidate, Retriever, pool_retriever
from truepass.solvers.llm import ask_once, demonstration_context

if TYPE_CHECKING:
    from truepass.solvers.base import SolveContext
    from truepass.solvers.capabilities import Demonstrating, ModelAsker


_WORD = r"(?P<word>correct|overfit\w*)"
_KEYED = re.compile(rf"\b(?:label|verdict|answer)\b[^A-Za-z\n]*(?:is\s+)?{_WORD}\b", re.I)
_ANY = re.compile(rf"\b{_WORD}\b", re.I)
_RATIONALE = re.compile(r"^\s*(?:rationale|reason(?:ing)?|because)\s*:\s*", re.I)

CONTEXT_LABELS = {"correct-only": ("correct",), "overfitting-only": ("overfitting",)}
"""The labels a context type draws from (``mixed``: both, alternating)."""


def source_bug(sample: PatchCorrectnessSample) -> str:
    """The bug a sample's patch fixes (its source sample): patches of one bug never demonstrate
    each other (a reference fix beside an overfitting patch of the same bug gives it away)."""
    return str(sample.meta.get("source_sample") or sample.id)


def candidate(sample: PatchCorrectnessSample) -> Candidate:
    """Retrieval matches on the diff; near-duplicates share the normalised patched code."""
    key = sample.meta.get("patched_key")
    return Candidate(
        id=sample.id,
        text=sample.diff,
        project=sample.project,
        timestamp=sample.timestamp,
        body_hash=str(key) if key else "",
    )


def retriever_for(pool: Sequence[Any], method: str = "bm25") -> Retriever:
    """The run's index over its demonstration pool (the suite's samples)."""
    return pool_retriever(pool, candidate, method)


def _word_label(word: str) -> str:
    return "correct" if word.lower() == "correct" else "overfitting"


def read_label(text: str) -> tuple[Label | None, str, str]:
    """The label in a model's answer: the first ``correct``/``overfit...`` word after ``label``,
    ``verdict`` or ``answer``; else the one of the two words the text holds (both or neither:
    unparsed). The rationale is the rest of the text. Returns (label or None, parse kind,
    detail)."""
    keyed = _KEYED.search(text)
    if keyed is not None:
        decision, kind, cut = _word_label(keyed["word"]), "keyed", keyed
    else:
        found = {_word_label(m["word"]) for m in _ANY.finditer(text)}
        if len(found) != 1:
            what = "both labels" if found else "neither label"
            return None, "none", f"the answer names {what} and no 'Label:'"
        decision, kind, cut = found.pop(), "anywhere", None
    rest = text
    if cut is not None:  # the rationale: what follows the label's line, else what precedes it
        line_end = text.find("\n", cut.end())
        after = text[line_end:] if line_end >= 0 else ""
        rest = after if after.strip() else text[: cut.start()]
    lines = [_RATIONALE.sub("", ln).strip() for ln in rest.strip().splitlines()]
    return Label(decision=decision, rationale=" ".join(ln for ln in lines if ln)), kind, ""


def choose(
    ranked: list[PatchCorrectnessSample], k: int, context: str
) -> list[PatchCorrectnessSample]:
    """``k`` demonstrations from ``ranked`` (best first) for a context type: ``mixed`` alternates
    the labels, the best-ranked first, and fills up with the best of the rest when one label runs
    out; the others take only their label."""
    if context in CONTEXT_LABELS:
        return [s for s in ranked if s.label in CONTEXT_LABELS[context]][:k]
    queues = {
        label: [s for s in ranked if s.label == label] for label in ("correct", "overfitting")
    }
    order = ["correct", "overfitting"]
    if ranked and ranked[0].label == "overfitting":
        order.reverse()
    out: list[PatchCorrectnessSample] = []
    turn = 0
    while len(out) < k and any(queues.values()):
        label = order[turn % 2]
        if not queues[label]:
            label = order[(turn + 1) % 2]
        out.append(queues[label].pop(0))
        turn += 1
    return out


def ask_for_label(
    family: Demonstrating,
    solver: ModelAsker,
    sample: PatchCorrectnessSample,
    attempt: int,
    ctx: SolveContext,
) -> Answer:
    """One attempt; the demonstrations shown and what the guard removed go into ``meta``."""
    pool = ctx.pool
    context, demonstrations = demonstration_context(family, solver)
    shown: list[tuple[dict[str, str], str, str]] = []
    if solver.shots:
        by_id = {s.id: s for s in pool}
        retriever = retriever_for(pool, solver.options.retrieval)
        # the whole guarded ranking: a context type may skip over many of one label
        selection = retriever.select(candidate(sample), len(retriever))
        ranked = [by_id[c.id] for c in selection.shown]
        bug = source_bug(sample)
        same_bug = [d for d in ranked if source_bug(d) == bug]
        ranked = [d for d in ranked if source_bug(d) != bug]
        kept = choose(ranked, solver.shots, context)
        shown = [(d.buggy, d.diff, d.label) for d in kept]
        demonstrations |= selection.record([d.id for d in kept], {"same-bug": len(same_bug)})
        demonstrations["labels"] = [d.label for d in kept]
    messages = build_patch_correctness_messages(
        sample.buggy, sample.diff, shown, solver.options.template_dir
    )
    label, meta, usage = ask_once(
        solver, messages, read_label, demonstrations, attempt=attempt, sample=sample, ctx=ctx
    )
    if label is None:
        return Answer(no_patch=True, meta=meta, usage=usage)
    return Answer(label=label, meta=meta, usage=usage)
