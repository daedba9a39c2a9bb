"""The shape of a source tree (a rebuild submission, the original it rebuilds): its main
language and structure. A published part of results.jsonl (``submission``)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Submission(BaseModel):
    """What a submitted source tree is (the rebuild family): its language and its shape."""

    language: str = Field(description="the main language, by lines of its source files")
    files: int = Field(ge=0, description="source files")
    depth: int = Field(ge=0, description="deepest directory level of a source file")
    functions: int = Field(ge=0)
    mean_function_length: float = Field(ge=0.0, description="lines of code per function")
