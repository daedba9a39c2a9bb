"""A model solver on a codegen sample: k demonstrations through the leakage guard, one request,
the code read out of the answer.

Every codegen attempt uses the ``codegen.j2`` template (overridable with ``--templates DIR``);
``--samples N --temperature T`` give the n attempts per problem that pass@k needs. With
``--shots K`` the prompt first shows K other problems of the suite with their reference
solutions, ranked by BM25 (or ``--retrieval``) on the problem text
(:mod:`truepass.prompts.retrieval`): bare (``--context bare``, the default) or with the
reasoning and strategy behind each solution (``--context explained``: only problems that carry
an ``explanation``, e.g. written by ``truepass explain``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from truepass.answers import Answer
from truepass.errors import InputError
from truepass.families.codegen.prompts import CodegenDemo, build_codegen_messages
from truepass.families.codegen.schema import SOLUTION_FILE, CodegenSample
from truepass.patches.extract import extract_code
from truepass.prompts.retrieval import Candidate, pool_retriever
from truepass.solvers.llm import round_record
from truepass.usage import Usage

if TYPE_CHECKING:
    from truepass.solvers.base import SolveContext
    from truepass.solvers.capabilities import ModelAsker, Prompted

BARE, EXPLAINED = "bare", "explained"
CONTEXT_TYPES = (BARE, EXPLAINED)


def candidate(sample: CodegenSample) -> Candidate:
    """What retrieval matches on: the problem (signature and docstring)."""
    return Candidate(id=sample.id, text=sample.prompt, timestamp=_timestamp(sample))


def _timestamp(sample: CodegenSample) -> str | None:
    value = sample.meta.get("timestamp")
    return value if isinstance(value, str) and value else None


def _solution(sample: CodegenSample) -> str:
    return " ".join(sample.canonical_solution.split())


def demonstrations(
    family: Prompted,
    sample: CodegenSample,
    k: int,
    context: str,
    pool: Sequence[Any],
    method: str = "bm25",
) -> tuple[list[CodegenSample], dict[str, object]]:
    """The ``k`` demonstrations for ``sample`` and what ``solver_meta.demonstrations`` records.

    The guard of :class:`~truepass.prompts.retrieval.Retriever` removes the target, its
    near-duplicates and later problems; on top of it, a problem whose reference solution is the
    target's own or holds it (``same-solution``: the prompt leak guard would refuse it) and, for
    ``explained``, one without an explanation (``no-explanation``) are passed over.
    """
    record: dict[str, object] = {"k": k, "context": context}
    if not k:
        return [], record
    if context == EXPLAINED and not any(getattr(s, "explanation", None) for s in pool):
        raise InputError(
            "--context explained needs problems with an explanation and this suite has none: "
            "write them with `truepass explain --suite SUITE --solver MODEL --out DIR` and run "
            "on DIR, or use --context bare"
        )
    by_id = {s.id: s for s in pool}
    selection = pool_retriever(pool, candidate, method).select(candidate(sample), len(pool))
    target, key = _solution(sample), family.answer_key(sample)
    kept: list[CodegenSample] = []
    passed_over = {"same-solution": 0, "no-explanation": 0}
    for found in selection.shown:
        demo = by_id[found.id]
        if _solution(demo) == target or key.found_in(demo.reference_code):
            passed_over["same-solution"] += 1
        elif context == EXPLAINED and not demo.explanation:
            passed_over["no-explanation"] += 1
        elif len(kept) < k:
            kept.append(demo)
    return kept, record | selection.record([d.id for d in kept], passed_over)


def ask_for_code(
    family: Prompted,
    solver: ModelAsker,
    sample: CodegenSample,
    attempt: int,
    ctx: SolveContext,
) -> Answer:
    """One attempt of ``solver`` on ``sample``; the raw response and the demonstrations shown
    are kept in ``meta``."""
    context = solver.options.context or CONTEXT_TYPES[0]
    demos, record = demonstrations(
        family, sample, solver.shots, context, ctx.pool, solver.options.retrieval
    )
    shown = [
        CodegenDemo(
            prompt=d.prompt,
            solution=d.reference_code,
            explanation=(d.explanation or "").strip() if context == EXPLAINED else "",
        )
        for d in demos
    ]
    params = solver.params(attempt)
    messages = build_codegen_messages(sample, shown, solver.options.template_dir)
    usage = Usage()
    completion = solver.ask(messages, params, usage, key=attempt, sample=sample, ctx=ctx)
    extracted = extract_code(completion.text, sample.prompt, sample.entry_point)
    rounds = [round_record(0, messages, completion, extracted.kind, extracted.detail)]
    meta = solver.meta(params, rounds) | {"variant": "codegen"}
    meta.pop("fault_source")
    meta["demonstrations"] = record
    if extracted.code is None:
        return Answer(no_patch=True, meta=meta, usage=usage)
    return Answer(files={SOLUTION_FILE: extracted.code}, meta=meta, usage=usage)
