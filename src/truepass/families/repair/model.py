"""A model solver on a repair sample: prompt per variant, parse a patch, and for ``feedback`` a
test-driven loop whose test runs happen in the sandbox on the visible tests only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from truepass.answers import Answer
from truepass.errors import PatchError
from truepass.families.repair.context import truncate_middle
from truepass.families.repair.judge import RepairCheck, phase_result
from truepass.families.repair.parse import parse_response
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.prompts import build_repair_messages
from truepass.families.repair.runners import runner_for
from truepass.families.repair.schema import RepairSample
from truepass.solvers.llm import round_record
from truepass.usage import Usage

if TYPE_CHECKING:
    from truepass.solvers.base import SolveContext
    from truepass.solvers.capabilities import ModelAsker

PROMPT_MARGIN = 64  # tokens kept free besides the completion budget
MAX_PROMPT_TOKENS = 6000
FEEDBACK_TOKENS = 800


def ask_for_patch(
    solver: ModelAsker, sample: RepairSample, attempt: int, ctx: SolveContext
) -> Answer:
    """One attempt: prompt, parse, and for ``feedback`` test and retry up to ``rounds``."""
    o, model = solver.options, solver.model
    check = ctx.check
    assert isinstance(check, RepairCheck)
    params = solver.params(attempt)
    budget = min(MAX_PROMPT_TOKENS, model.context_window - o.max_tokens - PROMPT_MARGIN)
    files = {**sample.files, **sample.tests.visible}
    usage = Usage()
    history: list[tuple[str, str]] = []
    rounds: list[dict[str, object]] = []
    n_rounds = o.rounds if solver.variant == "feedback" else 1
    answer: Answer | None = None
    for rnd in range(n_rounds):
        messages = build_repair_messages(
            sample,
            solver.variant,
            failing_output=check.buggy_output,
            history=history,
            focus=list(sample.fault) if o.given_fault else None,
            token_budget=max(budget, 256),
            count_tokens=model.count_tokens,
            template_dir=o.template_dir,
        )
        # each feedback round is its own request: the round index joins the cache key; the
        # templates show no demonstrations, so the first assistant turn is the model's own
        own = next((i for i, m in enumerate(messages) if m["role"] == "assistant"), None)
        completion = solver.ask(
            messages,
            params,
            usage,
            key=attempt * 1000 + rnd,
            sample=sample,
            ctx=ctx,
            answers_from=own,
        )
        parsed = parse_response(completion.text, files)
        record = round_record(rnd, messages, completion, parsed.kind, parsed.detail)
        rounds.append(record)
        answer = parsed.answer
        if rnd == n_rounds - 1:
            break
        feedback = _feedback(solver, sample, answer, parsed.detail, ctx)
        record["feedback"] = feedback
        if feedback is None:
            break
        history.append((completion.text, feedback))
    meta = solver.meta(params, rounds)
    if answer is None:
        return Answer(no_patch=True, meta=meta, usage=usage)
    return Answer(diff=answer.diff, files=answer.files, meta=meta, usage=usage)


def _feedback(
    solver: ModelAsker, sample: RepairSample, answer: Answer | None, detail: str, ctx: SolveContext
) -> str | None:
    """What goes back to the model after a round, or None when the visible tests pass."""
    if answer is None:
        return f"No patch could be read from your answer ({detail}). Reply with a unified "\
            "diff or the whole fixed file in a fenced code block."  # fmt: skip
    try:
        applied = apply_to_sample(sample, answer)
    except PatchError as exc:
        return f"Your patch does not apply: {exc}"
    tr = runner_for(sample).run(
        sample, applied.files, sample.tests.visible, limits=ctx.config.limits
    )
    check = ctx.check
    assert isinstance(check, RepairCheck)
    if phase_result(tr, check.visible_ids).ok:
        return None
    if tr.timed_out:
        return "The tests timed out with your patch (an infinite loop?)."
    output, _ = truncate_middle(tr.output, FEEDBACK_TOKENS, solver.model.count_tokens)
    return "The tests still fail with your patch:\n" + output
