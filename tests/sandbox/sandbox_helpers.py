"""Helpers of the sandbox tests: run Python code sandboxed, and look for survivors on the host."""

from __future__ import annotations

import os
import sys
import textwrap
import uuid
from pathlib import Path

from truepass.sandbox import Limits, SandboxResult, run_sandboxed

SMALL = Limits(timeout_s=20, memory_mb=512, cpu_s=20, max_processes=64, disk_mb=32)
HOST_PIDNS = os.readlink("/proc/self/ns/pid")
# Prepended to every payload of the bwrap tests: a destructive payload (kill(-1), a fork bomb)
# must never run on the host itself, even if a broken sandbox forgot its pid namespace.
GUARD = f"""\
import os as _os, sys as _sys
if _os.readlink("/proc/self/ns/pid") == {HOST_PIDNS!r}:
    _sys.exit("REFUSING TO RUN: this payload is not inside a pid namespace")
"""


def py(
    code: str,
    *,
    limits: Limits = SMALL,
    marker: str = "",
    guard: bool = True,
    files: dict[str, str | bytes] | None = None,
    env: dict[str, str] | None = None,
    ro_binds: dict[str, str] | None = None,
) -> SandboxResult:
    """Run Python ``code`` sandboxed; ``marker`` is appended to argv (so it shows in cmdlines)."""
    source = (GUARD if guard else "") + textwrap.dedent(code)
    argv = [sys.executable, "-c", source] + ([marker] if marker else [])
    return run_sandboxed(argv, files or {}, limits=limits, env=env, ro_binds=ro_binds)


def new_marker() -> str:
    """A unique string to find a run's processes by."""
    return f"truepass-marker-{uuid.uuid4().hex}"


def processes_with(marker: str) -> list[int]:
    """Live host processes whose command line contains ``marker`` (zombies have none)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != os.getpid():
            try:
                if marker.encode() in Path(f"/proc/{name}/cmdline").read_bytes():
                    found.append(int(name))
            except OSError:
                pass
    return found
