"""Codegen prompts (template ``codegen.j2``, and ``codegen-explain.j2`` for ``truepass
explain``).

A codegen prompt shows k demonstrations (another problem and its reference solution, with the
idea behind it when the demonstration is explained), then the problem (signature and
docstring); the visible cases are the problem's own examples, already in its docstring for
HumanEval. Hidden cases and the canonical solution never reach a prompt: the leak guard every
model prompt passes (:meth:`truepass.solvers.capabilities.Prompted.answer_key`) refuses one that
holds
the canonical solution's body.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from truepass.families.codegen.schema import CodegenSample
from truepass.prompts.templating import load_template, render_messages

TEMPLATE = "codegen.j2"
EXPLAIN_TEMPLATE = "codegen-explain.j2"


@dataclass(frozen=True)
class CodegenDemo:
    """One demonstration: a problem, its reference solution as a whole function, and the
    reasoning and strategy behind it ("" for a bare demonstration)."""

    prompt: str
    solution: str
    explanation: str = ""


def build_codegen_messages(
    sample: CodegenSample,
    demonstrations: Sequence[CodegenDemo] = (),
    template_dir: Path | None = None,
) -> list[dict[str, str]]:
    """Chat messages asking for ``sample.entry_point``, after ``demonstrations`` (best first)."""
    variables = {
        "prompt": sample.prompt,
        "demonstrations": [
            {"prompt": d.prompt, "solution": d.solution, "explanation": d.explanation}
            for d in demonstrations
        ],
    }
    return render_messages(load_template(TEMPLATE, template_dir), variables)


def build_explain_messages(
    sample: CodegenSample, template_dir: Path | None = None
) -> list[dict[str, str]]:
    """Chat messages asking for the reasoning and strategy of ``sample``'s reference solution
    (shown to the model on purpose: the answer is a demonstration for other problems)."""
    variables = {"prompt": sample.prompt, "solution": sample.reference_code}
    return render_messages(load_template(EXPLAIN_TEMPLATE, template_dir), variables)
