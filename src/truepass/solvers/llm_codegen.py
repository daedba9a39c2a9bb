"""A prompted model on a codegen sample: one request, the code read out of the answer.

The prompt variant of repair solvers does not apply here: every codegen attempt uses the
``codegen.j2`` template (overridable with ``--templates DIR``). ``--samples N --temperature T``
give the n attempts per problem that pass@k needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from truepass.models import cost_usd
from truepass.patches.apply import Answer
from truepass.patches.extract import extract_code
from truepass.prompts.codegen import build_codegen_messages
from truepass.suites.codegen import SOLUTION_FILE, CodegenSample
from truepass.usage import Usage

if TYPE_CHECKING:
    from truepass.solvers.llm import LLMSolver


def solve_codegen(solver: LLMSolver, sample: CodegenSample, attempt: int) -> Answer:
    """One attempt of ``solver`` on ``sample``; the raw response is kept in ``meta``."""
    s = solver.settings
    params = solver._params(attempt)
    messages = build_codegen_messages(sample, s.template_dir)
    completion = solver.model.complete(messages, params, attempt=attempt)
    usage = Usage()
    usage.add(
        prompt_tokens=completion.prompt_tokens,
        completion_tokens=completion.completion_tokens,
        latency_s=completion.latency_s,
        cached=completion.cached,
        cost_usd=cost_usd(
            solver.model.id, completion.prompt_tokens, completion.completion_tokens, s.prices
        ),
        estimated=completion.tokens_estimated,
    )
    extracted = extract_code(completion.text, sample.prompt, sample.entry_point)
    meta: dict[str, object] = {
        "model": solver.model.id,
        "variant": "codegen",
        "temperature": s.temperature,
        "seed": params.seed,
        "parse_kind": extracted.kind,
        "parse_detail": extracted.detail,
        "rounds": [
            {
                "round": 0,
                "prompt": messages,
                "response": completion.text,
                "parse_kind": extracted.kind,
                "parse_detail": extracted.detail,
                "cached": completion.cached,
                "prompt_tokens": completion.prompt_tokens,
                "completion_tokens": completion.completion_tokens,
                "finish_reason": completion.finish_reason,
            }
        ],
    }
    if extracted.code is None:
        return Answer(no_patch=True, meta=meta, usage=usage)
    return Answer(files={SOLUTION_FILE: extracted.code}, meta=meta, usage=usage)
