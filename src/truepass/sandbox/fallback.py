"""The ``rlimits-only`` tier, for machines where bubblewrap is missing or unusable.

It contains: the wall-clock timeout (the process group, the run's cgroup if one can be made, and
every process still carrying the run's private directory are killed), rlimits (address space,
CPU, file size, open files; processes via RLIMIT_NPROC for a non-root user or a pids cgroup for
root), output caps and a scrubbed environment. As root, where util-linux ``unshare`` works, the
run also gets fresh pid, network, IPC and UTS namespaces: the candidate then cannot signal host
processes (``kill(-1)`` as root would otherwise take the machine down), reach the network, or
leave daemons behind.

It does NOT contain: reads of anything the user can read (``$HOME``, the repository, API key
files), writes anywhere the user can write, disk use (only per-file size); and without the
namespaces (not root): the network, signals to the user's other processes (``kill(-1)``), and a
daemon that both leaves the process group and clears its environment and working directory.
"""

from __future__ import annotations

import functools
import os
import resource
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from truepass.sandbox import procs
from truepass.sandbox.bwrap import rlimit_args, tool
from truepass.sandbox.capture import Stream
from truepass.sandbox.cgroups import RunCgroups
from truepass.sandbox.execution import (
    HOST_ENV,
    execute,
    make_result,
    make_run_dir,
    remove_tree,
    sandbox_env,
    write_files,
)
from truepass.sandbox.models import Limits, SandboxResult

TIER = "rlimits-only"


def run_fallback(
    argv: list[str],
    files: Mapping[str, str | bytes],
    limits: Limits,
    env: Mapping[str, str] | None,
) -> SandboxResult:
    """Run ``argv`` in a temporary workspace under rlimits (see the module docstring)."""
    run_dir = make_run_dir("fb")
    workspace, private = run_dir / "workspace", run_dir / "tmp"
    try:
        write_files(workspace, files)
        private.mkdir()
        return run_fallback_in(
            argv, cwd=workspace, private=private, marker=str(run_dir), limits=limits, env=env
        )
    finally:
        remove_tree(run_dir)


def run_fallback_in(
    argv: list[str],
    *,
    cwd: Path,
    private: Path,
    marker: str,
    limits: Limits,
    env: Mapping[str, str] | None,
    enter: Sequence[str] = (),
) -> SandboxResult:
    """Run ``argv`` in ``cwd`` under rlimits, ``private`` as its HOME and TMPDIR.

    ``marker`` is a unique path that ``private`` and ``cwd`` lie under: every process still
    carrying it (environment or working directory) when the run ends is killed. ``enter`` is a
    command prefix run after joining the cgroups (a persistent session's ``nsenter`` into the
    mount namespace that holds its workspace).
    """
    cgroups = RunCgroups.create(
        pids_max=limits.max_processes + 2,  # + unshare and the namespace's init shell
        memory_bytes=(limits.memory_mb + limits.disk_mb) << 20,
    )
    try:
        nproc = None
        if os.geteuid() != 0:  # root ignores RLIMIT_NPROC; it counts all the user's tasks
            nproc = procs.tasks_of_uid(os.geteuid()) + limits.max_processes
        prlimit = tool("prlimit")
        limiter: list[str] = []
        preexec: Callable[[], None] | None = None
        if prlimit:
            limiter = [prlimit, *rlimit_args(limits, nproc), "--"]
        else:
            preexec = _setrlimits(limits, nproc)
        script = "set -e\necho 1000 > /proc/self/oom_score_adj 2>/dev/null || true\n"
        script += cgroups.join_script() + 'exec "$@"\n'
        channel_r, channel_w = os.pipe()
        cmd = ["/bin/sh", "-c", script, "truepass-setup", *enter, *namespaces(), *limiter, *argv]

        def sweep(_streams: dict[str, Stream]) -> None:
            cgroups.kill_all()
            procs.kill_until_gone(lambda: procs.carrying(marker))

        outcome = execute(
            cmd, cwd=cwd, limits=limits, pass_fds=(channel_w,),
            env=sandbox_env(home=str(private), channel_fd=channel_w, extra=env),
            readers={"channel": (channel_r, limits.output_bytes)},
            sweep=sweep, kill_group=True, preexec_fn=preexec,
        )  # fmt: skip
        return make_result(TIER, outcome)
    finally:
        cgroups.kill_all()
        cgroups.remove()


@functools.cache
def namespaces() -> list[str]:
    """As root: a command prefix giving fresh pid/net/ipc/uts namespaces, if ``unshare`` works.

    A shell is the namespace's init (so the candidate is not pid 1 and keeps normal signal
    semantics); when it ends, the kernel kills everything left in the namespace.
    """
    unshare = tool("unshare")
    if os.geteuid() != 0 or unshare is None:
        return []
    prefix = [unshare, "--pid", "--fork", "--kill-child", "--mount-proc", "--net", "--ipc", "--uts"]
    try:
        probe = subprocess.run(
            [*prefix, "--", "true"], env=HOST_ENV, capture_output=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return []
    if probe.returncode != 0:
        return []
    return [*prefix, "--", "/bin/sh", "-c", '"$@"; exit $?', "truepass-init"]


def _setrlimits(limits: Limits, nproc: int | None) -> Callable[[], None]:
    """A preexec function for hosts without prlimit (only async-signal-safe-ish calls)."""
    mib = 1024 * 1024
    values = [(resource.RLIMIT_AS, limits.memory_mb * mib)] if limits.address_space else []
    values += [
        (resource.RLIMIT_CPU, limits.cpu_s),
        (resource.RLIMIT_FSIZE, limits.file_size_mb * mib),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_CORE, 0),
    ]
    if nproc is not None:
        values.append((resource.RLIMIT_NPROC, nproc))

    def apply() -> None:
        for which, value in values:
            resource.setrlimit(which, (value, value))

    return apply
