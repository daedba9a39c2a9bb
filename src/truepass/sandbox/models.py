"""The sandbox's two persisted shapes: the limits a run is given and the result it returns."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Limits(BaseModel):
    """Resource limits of one sandboxed run.

    Every limit applies to the untrusted process and all its descendants. ``memory_mb`` is the
    address space of each process (RLIMIT_AS, unless ``address_space`` is off); where a memory
    cgroup is available the whole tree is additionally capped at ``memory_mb + disk_mb``
    resident (tmpfs pages count as memory).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    timeout_s: float = Field(default=60.0, gt=0, description="wall clock, then the tree is killed")
    memory_mb: int = Field(default=2048, gt=0, description="address space per process (RLIMIT_AS)")
    cpu_s: int = Field(default=120, gt=0, description="CPU seconds per process (RLIMIT_CPU)")
    max_processes: int = Field(default=128, gt=0, description="processes+threads of the tree")
    file_size_mb: int = Field(default=64, gt=0, description="largest file a process may write")
    disk_mb: int = Field(default=256, gt=0, description="total writable space (workspace + /tmp)")
    open_files: int = Field(default=256, gt=0, description="open file descriptors per process")
    output_bytes: int = Field(
        default=1_000_000, gt=0, description="cap on captured stdout, stderr and channel, each"
    )
    address_space: bool = Field(
        default=True,
        description="apply memory_mb as RLIMIT_AS to each process; off for a JVM, which reserves"
        " far more address space than it uses (its heap is capped by its own flags and the tree"
        " by the memory cgroup)",
    )


class SandboxResult(BaseModel):
    """What one sandboxed run produced. The workspace itself is never read back."""

    model_config = ConfigDict(frozen=True)

    tier: str = Field(description='"bwrap", or "rlimits-only" (the weaker fallback)')
    returncode: int | None = Field(
        description="exit status; 128+N when killed by signal N; None when killed by the timeout"
    )
    stdout: str
    stderr: str
    channel: bytes = Field(description="everything written to the fd named by TRUEPASS_CHANNEL_FD")
    timed_out: bool
    output_truncated: bool = Field(description="stdout, stderr or channel exceeded output_bytes")
    duration_s: float


DEFAULT_LIMITS = Limits()
