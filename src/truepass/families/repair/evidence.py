"""What the repair judge finds beyond the shared verdict fields (``Judged.evidence``)."""

from __future__ import annotations

from pydantic import Field

from truepass.families.repair.patchtypes import PatchType
from truepass.families.repair.strategy import FixStrategy
from truepass.judged import Evidence
from truepass.metrics.localisation import Localisation
from truepass.metrics.quality import QualityDelta
from truepass.metrics.root_cause import NamedCause


class RepairEvidence(Evidence):
    """A patch's code-quality delta and fault localisation (static, in the host process), and
    the root cause a model named (the ``root-cause`` prompt variant, the workflow)."""

    quality: QualityDelta | None = None
    localisation: Localisation | None = None
    named_cause: NamedCause | None = Field(
        None, description="the root cause a model named first (variant root-cause), scored"
    )
    patch_type: PatchType | None = Field(
        None, description="how far the patch reaches (seed 001's patch types, patchtypes.py)"
    )
    fix_strategy: FixStrategy | None = Field(
        None,
        description="what kind of change the patch makes (seed 002's layer 4, strategy.py); "
        "None when it changed no code",
    )
