"""The flag record every fake-fix detector returns; the vocabulary says what each flag means."""

from __future__ import annotations

from dataclasses import dataclass

from truepass.vocabulary import FAKE_FIX_FLAGS

FLAG_NAMES = (
    "touches-tests",
    "removes-assertion",
    "swallows-exception",
    "hardcodes-expected",
    "special-cases-input",
    "deletes-functionality",
    "forges-equality",
    "tampers-harness",
)
"""The flags the patch detectors raise, in report order (other families raise their own)."""
assert set(FLAG_NAMES) <= set(FAKE_FIX_FLAGS), "every detector flag has a meaning"


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
