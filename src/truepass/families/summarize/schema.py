"""The summarize sample: one function to describe in a sentence (docs/summarize-format.md).

The solver sees the function's code without its docstring; the reference summary is the
docstring's first paragraph (the CodeSearchNet ``docstring_summary`` that CodeXGLUE's
code-to-text task scores against). The whole docstring is kept in ``meta["docstring"]``.

This module is meant to become ``truepass/families/summarize/schema.py`` once the family exists.
"""

from __future__ import annotations

import keyword
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from truepass.paths import check_relative_path
from truepass.suites.fields import Leakage, Timestamp, aware

ID_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9._/:@+-]*$"
"""Sample ids: ``PROJECT/path::Class.function`` (``@2`` for a second definition of one name)."""


def _identifier(name: str) -> bool:
    return name.isidentifier() and not keyword.iskeyword(name)


class SummarizeSample(BaseModel):
    """One function of a project and its reference summary (one JSONL line with
    ``"family": "summarize"``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    family: Literal["summarize"]
    id: str = Field(min_length=1, pattern=ID_PATTERN)
    project: str = Field(min_length=1, description="demonstrations come only from the same one")
    path: str = Field(description="the file, relative to the project root (POSIX separators)")
    class_name: str | None = Field(
        None, description="the enclosing class, dotted when nested (Outer.Inner); None: a function"
    )
    function: str = Field(description="the function's name")
    code: str = Field(
        min_length=1, description="the definition (decorators included) without its docstring"
    )
    docstring: str = Field(min_length=1, description="the reference summary")
    timestamp: Timestamp = Field(
        None, description="ISO 8601: author date of the last commit touching the function"
    )
    source: str = Field(min_length=1)
    leakage: Leakage
    category: str = Field("summarize", min_length=1, description="summaries break down by it")
    meta: dict[str, object] = Field(default_factory=dict)

    @field_validator("path")
    @classmethod
    def _path(cls, v: str) -> str:
        return check_relative_path(v)

    @field_validator("function")
    @classmethod
    def _function(cls, v: str) -> str:
        if not _identifier(v):
            raise ValueError(f"'{v}' is not a Python function name")
        return v

    @field_validator("class_name")
    @classmethod
    def _class_name(cls, v: str | None) -> str | None:
        if v is not None and not all(_identifier(part) for part in v.split(".")):
            raise ValueError(f"'{v}' is not a (dotted) Python class name")
        return v

    @property
    def when(self) -> datetime | None:
        """``timestamp`` as an aware datetime (one without an offset is read as UTC)."""
        return aware(self.timestamp)

    @property
    def qualname(self) -> str:
        """``Class.function`` or ``function``."""
        return f"{self.class_name}.{self.function}" if self.class_name else self.function

    @property
    def defect_type(self) -> str:
        """Breakdown key shared with repair samples in records and summaries."""
        return self.category
