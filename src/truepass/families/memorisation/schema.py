"""The memorisation sample: the first part of one source file and its next lines, the hidden
answer (docs/memorisation-format.md)."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from truepass.paths import check_relative_path
from truepass.suites.fields import Leakage

ID_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9._/:@+-]*$"
"""Sample ids: ``ROLE/SUITE/path`` (``@2`` for a second file of one path)."""


class Role(StrEnum):
    """Which side of the probe a file is on."""

    TARGET = "target"
    """A file of the suite probed (a public benchmark the model may have been trained on)."""
    CONTROL = "control"
    """A file the model cannot have seen (a bundled private suite)."""


class MemorisationSample(BaseModel):
    """One file's prefix and continuation (one JSONL line with ``"family": "memorisation"``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    family: Literal["memorisation"]
    id: str = Field(min_length=1, pattern=ID_PATTERN)
    leakage: Leakage = Field(description="the source sample's tier")
    role: Role
    source_suite: str = Field(min_length=1, description="the suite the file comes from")
    source_sample: str = Field(min_length=1, description="the first sample holding the file")
    path: str = Field(description="the file, relative to its sample's root (POSIX separators)")
    language: str = Field(min_length=1, description="python, java, ... (the prompt's fence)")
    prefix: str = Field(min_length=1, description="the file's first part, shown to the solver")
    continuation: str = Field(
        min_length=1, description="the next lines of the file, verbatim: the hidden answer"
    )
    meta: dict[str, object] = Field(default_factory=dict)

    @field_validator("path")
    @classmethod
    def _path(cls, v: str) -> str:
        return check_relative_path(v)

    @property
    def defect_type(self) -> str:
        """Breakdown key of records and summaries: the role (``target`` or ``control``)."""
        return self.role.value
