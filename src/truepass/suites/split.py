"""Development and test splits of a suite (seed 002: never tune prompts on the evaluation set).

A sample's place is a hash of its id alone (SHA-256, its first 8 bytes read as a fraction of
2**64), so a sample is in the same split in every run, on every machine, whatever else the suite
holds and whatever order its lines are in: ``dev`` when the fraction is below ``dev_share``,
``test`` otherwise. ``run --split dev|test --dev-share X`` runs one split; the manifest records
it, and ``compare`` warns when prompt variants are compared on the split they are tuned on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from enum import StrEnum
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_DEV_SHARE = 0.3
"""The share of samples in ``dev`` unless ``--dev-share`` says otherwise."""

S = TypeVar("S")


class Split(StrEnum):
    """``dev``: where prompts and settings are tuned; ``test``: where results are reported."""

    DEV = "dev"
    TEST = "test"


class SplitSpec(BaseModel):
    """One split of a suite: which, and the share of samples in ``dev``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    split: Split
    dev_share: float = Field(DEFAULT_DEV_SHARE, gt=0.0, lt=1.0)


def position(sample_id: str) -> float:
    """The sample's fixed place in [0, 1): its id's SHA-256, first 8 bytes, over 2**64."""
    digest = hashlib.sha256(sample_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def split_of(sample_id: str, dev_share: float = DEFAULT_DEV_SHARE) -> Split:
    """``dev`` when the sample's :func:`position` is below ``dev_share``, else ``test``."""
    return Split.DEV if position(sample_id) < dev_share else Split.TEST


def select(samples: Sequence[S], spec: SplitSpec, id_of: str = "id") -> list[S]:
    """The samples of ``spec``'s split, in their order."""
    return [s for s in samples if split_of(getattr(s, id_of), spec.dev_share) is spec.split]
