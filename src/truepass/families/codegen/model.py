"""A model solver on a codegen sample: one request, the code read out of the answer.

Every codegen attempt uses the ``codegen.j2`` template (overridable with ``--templates DIR``);
``--samples N --temperature T`` give the n attempts per problem that pass@k needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from truepass.answers import Answer
from truepass.families.codegen.schema import SOLUTION_FILE, CodegenSample
from truepass.patches.extract import extract_code
from truepass.prompts.codegen import build_codegen_messages
from truepass.solvers.llm import round_record
from truepass.usage import Usage

if TYPE_CHECKING:
    from truepass.solvers.llm import LLMSolver


def ask_for_code(solver: LLMSolver, sample: CodegenSample, attempt: int) -> Answer:
    """One attempt of ``solver`` on ``sample``; the raw response is kept in ``meta``."""
    params = solver.params(attempt)
    messages = build_codegen_messages(sample, solver.options.template_dir)
    usage = Usage()
    completion = solver.ask(messages, params, usage, key=attempt)
    extracted = extract_code(completion.text, sample.prompt, sample.entry_point)
    rounds = [round_record(0, messages, completion, extracted.kind, extracted.detail)]
    meta = solver.meta(params, rounds) | {"variant": "codegen"}
    meta.pop("fault_source")
    if extracted.code is None:
        return Answer(no_patch=True, meta=meta, usage=usage)
    return Answer(files={SOLUTION_FILE: extracted.code}, meta=meta, usage=usage)
