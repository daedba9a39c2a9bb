"""The codegen sample: one function to write from its prompt (docs/codegen-format.md).

Tests are input/output cases, not test code: the candidate's function is called on each case's
arguments inside the sandbox, and the verdict is computed here, in the trusted process, from the
returned plain value, never by the candidate's own ``==``. A case without ``expected`` takes the
canonical solution's output (run in the sandbox when the sample is checked), the EvalPlus way.
"""

from __future__ import annotations

import keyword
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from truepass.suites.fields import Leakage
from truepass.suites.literals import LiteralError, parse_args, parse_literal

SOLUTION_FILE = "solution.py"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CodegenCase(_Strict):
    """One call: positional arguments as Python literal text, and optionally the expected value."""

    args: str = Field(description='arguments as inside the call\'s parentheses, e.g. "[1, 2], 3"')
    expected: str | None = Field(None, description="the return value as a Python literal")

    @field_validator("args")
    @classmethod
    def _args(cls, v: str) -> str:
        try:
            parse_args(v, fresh=False)
        except LiteralError as exc:
            raise ValueError(str(exc)) from exc
        return v

    @field_validator("expected")
    @classmethod
    def _expected(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                parse_literal(v, fresh=False)
            except LiteralError as exc:
                raise ValueError(str(exc)) from exc
        return v

    def arguments(self, *, fresh: bool = True) -> list[object]:
        """The parsed positional arguments (``fresh``: see
        :func:`~truepass.suites.literals.parse_literal`)."""
        return parse_args(self.args, fresh=fresh)


class CodegenTests(_Strict):
    """``visible`` cases may be shown to solvers (the problem's own examples and base tests);
    ``hidden`` cases never are (e.g. added by ``truepass harden``)."""

    visible: list[CodegenCase]
    hidden: list[CodegenCase] = Field(default_factory=list)

    @field_validator("visible")
    @classmethod
    def _non_empty(cls, v: list[CodegenCase]) -> list[CodegenCase]:
        if not v:
            raise ValueError("at least one visible case is required")
        return v


class CodegenSample(_Strict):
    """One function-level code generation problem (one JSONL line with ``"family": "codegen"``)."""

    family: Literal["codegen"]
    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$")
    language: Literal["python"] = "python"
    prompt: str = Field(min_length=1, description="signature and docstring, HumanEval style")
    entry_point: str = Field(min_length=1)
    canonical_solution: str = Field(
        min_length=1, description="the body completing the prompt (prompt + this = the solution)"
    )
    tests: CodegenTests
    explanation: str | None = None
    category: str = Field("codegen", min_length=1, description="summaries break down by it")
    atol: float = Field(0.0, ge=0.0, description="absolute tolerance for floats in results")
    source: str = Field(min_length=1)
    leakage: Leakage
    meta: dict[str, object] = Field(default_factory=dict)

    @field_validator("entry_point")
    @classmethod
    def _identifier(cls, v: str) -> str:
        if not v.isidentifier() or keyword.iskeyword(v):
            raise ValueError(f"'{v}' is not a Python function name")
        return v

    @model_validator(mode="after")
    def _defines_entry_point(self) -> CodegenSample:
        if f"def {self.entry_point}(" not in self.reference_code:
            raise ValueError(f"prompt + canonical_solution do not define '{self.entry_point}'")
        return self

    @property
    def reference_code(self) -> str:
        """The canonical solution as a whole module."""
        return self.prompt + self.canonical_solution

    @property
    def defect_type(self) -> str:
        """Breakdown key shared with repair samples in records and summaries."""
        return self.category
