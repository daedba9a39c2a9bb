"""A loaded suite: named, versioned samples of one task family, with their content hash."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

from truepass.families import registry
from truepass.families.base import Family
from truepass.families.registry import DEFAULT as DEFAULT_FAMILY

Sample = BaseModel  # a sample of any family: its family's ``sample_type``


@dataclass(frozen=True)
class Suite:
    """A named, versioned set of samples with its content hash (goes into every manifest)."""

    name: str
    version: str
    description: str
    path: Path
    content_hash: str
    samples: list[Sample] = field(repr=False)
    family: str = DEFAULT_FAMILY
    setting: str | None = None
    """what the samples show their solvers, when the benchmark they come from has settings
    (:attr:`truepass.families.formats.SuiteFormat.setting`; ``setting`` in ``suite.toml``)"""

    @property
    def family_type(self) -> type[Family]:
        """The family of the suite's samples (:mod:`truepass.families.registry`)."""
        return registry.get(self.family)

    def sample(self, sample_id: str) -> Sample:
        """The sample with this id (KeyError if absent)."""
        for s in self.samples:
            if s.id == sample_id:
                return s
        raise KeyError(sample_id)
