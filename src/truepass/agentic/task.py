"""What a family gives an agent: the starting workspace, the task text, how to run the visible
tests, and how the final workspace becomes an :class:`~truepass.answers.Answer`
(:meth:`truepass.solvers.capabilities.TakesAgents.agent_task`)."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from truepass.agentic.limits import AgentLimits
from truepass.answers import Answer
from truepass.patches.apply import unified_diff

if TYPE_CHECKING:
    from truepass.sandbox.session import SandboxSession

CACHE_DIRS = frozenset(
    {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"}
)
"""Directories tools write on their own (pytest's cache, byte code): never part of an answer."""


class AgentTask(BaseModel):
    """One sample as an agent sees it.

    ``files`` is the whole starting workspace: nothing else of the sample enters the sandbox, so
    a family puts here only what the agent may see (repair: the buggy files and the visible
    tests; never the hidden tests or the reference fix). ``instructions`` is the task text of the
    first user message; ``test_command`` a shell command, run in the workspace, that runs the
    visible tests (the ``run_tests`` action; None: the family has none); ``env`` extra
    environment variables of every command; ``ro_binds`` what else the sandbox shows.

    :meth:`answer` turns the final workspace into the answer that is judged: by default a
    unified diff of its text files against ``files`` (files under :data:`CACHE_DIRS` and
    ``.pyc`` files left out). A family whose answers are not patches subclasses this model and
    overrides :meth:`answer`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    files: dict[str, str] = Field(description="relative path -> text: the starting workspace")
    instructions: str = Field(min_length=1)
    test_command: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    ro_binds: dict[str, str] = Field(
        default_factory=dict,
        description="host path -> sandbox path bound read-only into every command (the rebuild "
        "family's execute-only gold)",
    )
    warning: str = Field(
        "", description="added to the warning shown when few steps are left (e.g. build now)"
    )
    limits: AgentLimits | None = Field(
        None,
        description="the family's default limits for its kind of task (rebuild: the benchmark's "
        "1,000 steps and 6 hours); the run's --agent-* options override each; None: the loop's "
        "defaults",
    )
    address_space: bool = Field(
        True,
        description="apply the memory limit as an address-space limit to every command; False "
        "for tasks whose commands start a JVM (sandbox Limits.address_space)",
    )

    def answer(self, session: SandboxSession) -> Answer:
        """The answer the workspace holds now: a diff against the starting files
        (``no_patch`` when nothing changed)."""
        diff = self.workspace_diff(session)
        return Answer(diff=diff) if diff else Answer(no_patch=True)

    def workspace_diff(self, session: SandboxSession) -> str:
        """A unified diff (``a/``/``b/``) of the workspace's text files against :attr:`files`,
        without tool caches; new files included, deleted ones as deletions."""
        before = {p: t for p, t in self.files.items() if not is_cache_path(p)}
        after = {p: t for p, t in session.snapshot().items() if not is_cache_path(p)}
        return unified_diff(before, after)


def is_cache_path(path: str) -> bool:
    """Whether ``path`` is something a tool wrote for itself (byte code, pytest's cache)."""
    p = PurePosixPath(path)
    return p.suffix == ".pyc" or any(part in CACHE_DIRS for part in p.parts[:-1])


__all__ = ["CACHE_DIRS", "AgentTask", "is_cache_path"]
