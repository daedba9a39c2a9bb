"""What a solver returns: one :class:`Answer`, of one of the kinds in
:class:`~truepass.vocabulary.AnswerKind` (a patch, whole files, text, or a label)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from truepass.usage import Usage
from truepass.vocabulary import AnswerKind


class Label(BaseModel):
    """A decision (e.g. ``accept``/``reject``, ``correct``/``overfitting``) with its rationale."""

    model_config = ConfigDict(frozen=True)

    decision: str = Field(min_length=1)
    rationale: str = ""


@dataclass(frozen=True)
class Answer:
    """What a solver returns: a unified diff, whole-file replacements, text, or a label; a patch
    answer with nothing in it changes nothing.

    ``no_patch`` marks an answer from which nothing usable could be parsed (judged ``no-patch``);
    ``meta`` and ``usage`` are recorded either way, so the raw response is never lost.
    """

    diff: str | None = None
    files: dict[str, str] | None = None
    text: str | None = None
    label: Label | None = None
    patch_id: str | None = None
    meta: dict[str, object] = field(default_factory=dict)
    no_patch: bool = False
    usage: Usage | None = None

    @property
    def kind(self) -> AnswerKind:
        """What this answer holds (files win over a diff, as when applying)."""
        if self.no_patch:
            return AnswerKind.NONE
        if self.label is not None:
            return AnswerKind.LABEL
        if self.text is not None:
            return AnswerKind.TEXT
        if self.files is not None:
            return AnswerKind.FILES
        return AnswerKind.PATCH
