"""Hidden tests that bite: grow a codegen suite's hidden tests by type-aware input mutation,
keep the smallest set that kills the mutants of the canonical solution (``truepass harden``).

See docs/harden.md.
"""

from truepass.families.codegen.harden.harden import (
    HardenConfig,
    HardenReport,
    ProblemReport,
    harden_suite,
)
from truepass.families.codegen.harden.minimise import greedy_cover
from truepass.families.codegen.harden.mutants import mutants_of
from truepass.pycode.inputs import generate_inputs

__all__ = [
    "HardenConfig", "HardenReport", "ProblemReport", "generate_inputs", "greedy_cover",
    "harden_suite", "mutants_of",
]  # fmt: skip
