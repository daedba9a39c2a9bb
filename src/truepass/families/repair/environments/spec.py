"""What a repository's environment is made of, and its content key."""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

FORMAT = 1  # bump when the same spec would build a different environment


class EnvSource(StrEnum):
    """Where the environment's packages were declared, in the order they are looked for."""

    SPEC = "environments.toml"  # an explicit spec beside the instances file overrides the rest
    LOCK = "uv.lock"
    REQUIREMENTS = "requirements"
    PYPROJECT = "pyproject.toml"


class EnvSpec(BaseModel):
    """One environment: an interpreter version, pinned packages, and how the project itself is
    built on top of them. Two samples with equal specs share one built environment."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    python: str = Field(pattern=r"^3\.\d+$", description="the interpreter's minor version")
    source: EnvSource
    declared: list[str] = Field(description="the repository files the packages were read from")
    requirements: list[str] = Field(
        description="pinned requirement lines (``name==version``, markers kept), the test "
        "dependencies and the project's own"
    )
    build_requires: list[str] = Field(
        default_factory=list, description="pinned packages of the project's build backend"
    )
    sdists: list[str] = Field(
        default_factory=list,
        description="pinned packages published without a wheel (``name==version``): built "
        "from their sdists offline in the sandbox",
    )
    pre_install: list[str] = Field(
        default_factory=list,
        description="shell commands run in the sandbox, in the repository, before the project "
        "is built (an explicit spec's)",
    )
    project: str | None = Field(
        default=None,
        description="sha256 of the files the project's build reads (pyproject.toml, setup.py, "
        "setup.cfg); None: the project is not built (nothing to build)",
    )
    extensions: list[str] = Field(
        default_factory=list,
        description="compiled sources of the project (C, C++, Cython): built in the sandbox, "
        "overlaid into each workspace, rebuilt when a patch changes them",
    )

    problem: str | None = Field(
        default=None,
        description="why the declarations could not be resolved when the suite was loaded: the "
        "sample is invalid for it (resolved again the next time the suite is loaded)",
    )

    def key(self) -> str:
        """The content key: equal specs, equal keys (the cache directory's name)."""
        text = json.dumps([FORMAT, self.model_dump(mode="json")], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:20]
