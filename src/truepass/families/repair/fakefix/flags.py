"""The flag record every fake-fix detector returns, whose names the vocabulary lists."""

from __future__ import annotations

from dataclasses import dataclass

from truepass.vocabulary import FAKE_FIX_FLAGS

FLAG_NAMES = FAKE_FIX_FLAGS  # the vocabulary (truepass.vocabulary) names them


@dataclass(frozen=True)
class Flag:
    """One suspicious change of a patch.

    ``line`` is 1-based in the patched file, or in the buggy (or pristine test) file when the flag
    is about something the patch removed. ``explanation`` is one line naming that line.
    """

    name: str
    file: str
    line: int
    explanation: str

    def __post_init__(self) -> None:
        if self.name not in FLAG_NAMES:
            raise ValueError(f"unknown flag name {self.name!r}")
