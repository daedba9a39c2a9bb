"""``run_sandboxed``: run untrusted code in a fresh workspace under limits, and ``sandbox_tier``.

Tiers: ``bwrap`` (see :mod:`truepass.sandbox.bwrap`) and the weaker ``rlimits-only`` fallback
(see :mod:`truepass.sandbox.fallback`: rlimits, a timeout, a scrubbed environment and a temporary
directory on the host's filesystem). ``TRUEPASS_SANDBOX=bwrap|rlimits-only`` forces a tier; the
tier used is recorded in every result.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import stat
from collections.abc import Mapping
from pathlib import PurePosixPath

from truepass.errors import SandboxError
from truepass.sandbox import procs
from truepass.sandbox.bwrap import (
    SANDBOX_UID,
    Plan,
    interpreter_paths,
    privileged_possible,
    readable_by_others,
    tool,
)
from truepass.sandbox.capture import Stream
from truepass.sandbox.cgroups import RunCgroups
from truepass.sandbox.execution import (
    execute,
    make_result,
    make_run_dir,
    remove_tree,
    sandbox_env,
    write_files,
)
from truepass.sandbox.fallback import namespaces, run_fallback
from truepass.sandbox.models import DEFAULT_LIMITS, Limits, SandboxResult

log = logging.getLogger(__name__)

BWRAP = "bwrap"
RLIMITS_ONLY = "rlimits-only"
INSTALL_HINT = (
    "install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`, Fedora: `dnf install "
    "bubblewrap`) and util-linux's prlimit; unprivileged use also needs user namespaces enabled"
)
_warned = False


def sandbox_tier() -> str:
    """The tier runs get on this machine: ``"bwrap"`` or ``"rlimits-only"``.

    Honours ``TRUEPASS_SANDBOX``; forcing ``bwrap`` where it cannot work raises
    :class:`SandboxError`. Falling back logs one loud warning per process saying what is missing.
    """
    forced = os.environ.get("TRUEPASS_SANDBOX", "").strip()
    if forced not in ("", BWRAP, RLIMITS_ONLY):
        raise SandboxError(f"TRUEPASS_SANDBOX must be {BWRAP} or {RLIMITS_ONLY}, not {forced!r}")
    if forced == RLIMITS_ONLY:
        _warn_fallback("it was forced with TRUEPASS_SANDBOX=rlimits-only")
        return RLIMITS_ONLY
    mode, reason = _bwrap_mode()
    if mode is not None:
        return BWRAP
    if forced == BWRAP:
        raise SandboxError(f"TRUEPASS_SANDBOX=bwrap, but {reason}; {INSTALL_HINT}")
    _warn_fallback(reason)
    return RLIMITS_ONLY


def _warn_fallback(reason: str) -> None:
    global _warned
    if _warned:
        return
    _warned = True
    if os.geteuid() == 0:
        shared = "filesystem AS ROOT (it can read and change anything on this machine)"
        shared += "" if namespaces() else ", network and processes"
    else:
        shared = "filesystem, network and processes of this user"
    log.warning(
        "SANDBOX IS WEAK: using the 'rlimits-only' tier because %s. Untrusted code then shares "
        "the %s; only rlimits, a timeout, a scrubbed environment and a temporary directory "
        "stand in its way. To get the 'bwrap' tier, %s.",
        reason,
        shared,
        INSTALL_HINT,
    )


@functools.cache
def _bwrap_mode() -> tuple[str | None, str]:
    """(``"privileged"`` | ``"unprivileged"`` | None, why not), probed once by a real run."""
    if tool("bwrap") is None:
        return None, "bubblewrap (bwrap) is not installed"
    if tool("prlimit") is None:
        return None, "prlimit (util-linux) is not installed"
    failures = []
    modes = ["privileged", "unprivileged"] if privileged_possible() else ["unprivileged"]
    for mode in modes:
        try:
            probe = _run_bwrap(["true"], {}, Limits(timeout_s=30), None, {}, mode=mode)
        except SandboxError as exc:
            failures.append(f"{mode}: {exc}")
            continue
        if probe.returncode == 0:
            if mode == "unprivileged" and os.geteuid() == 0:
                log.warning("sandbox: bwrap as root without the privileged setup: %s", failures)
            return mode, ""
        failures.append(f"{mode}: exit {probe.returncode}: {probe.stderr.strip()[-300:]}")
    return None, "bwrap cannot start a sandbox here (" + "; ".join(failures) + ")"


def run_sandboxed(
    argv: list[str],
    files: Mapping[str, str | bytes],
    *,
    limits: Limits = DEFAULT_LIMITS,
    env: Mapping[str, str] | None = None,
    ro_binds: Mapping[str, str] | None = None,
) -> SandboxResult:
    """Run ``argv`` on ``files`` in a fresh sandbox and return what it printed.

    Args:
        argv: the command; ``sys.executable`` works inside (its venv is bound read-only).
        files: relative path -> content, laid out in a fresh writable workspace that is the
            working directory (``/workspace`` in the bwrap tier) and is discarded afterwards.
        limits: time, memory, CPU, processes, file size, disk, open files and output caps.
        env: extra environment variables; nothing else of the caller's environment gets in.
        ro_binds: host path -> sandbox path, bound read-only (e.g. a harness directory).

    Results come only through stdout, stderr and the channel: a pipe whose write end is the fd
    named by ``TRUEPASS_CHANNEL_FD``. No process of the run survives the call.

    Raises:
        SandboxError: the sandbox itself failed (bwrap could not start, bad paths); the caller
            retries and records an infra error.
    """
    if not argv:
        raise SandboxError("empty argv")
    for text in [*argv, *(env or {}), *(env or {}).values()]:
        if "\0" in text:
            raise SandboxError(f"NUL byte in argv or env: {text!r}")
    check_files(files, limits)
    binds = _check_binds(ro_binds or {})
    if sandbox_tier() == BWRAP:
        mode = bwrap_mode()
        return _run_bwrap(list(argv), files, limits, env, binds, mode=mode)
    return run_fallback(list(argv), files, limits, env)


def check_binds(ro_binds: Mapping[str, str], mode: str | None) -> dict[str, str]:
    """Refuse read-only binds whose source is missing, whose destination is not absolute, or
    (``mode`` ``"privileged"``) that the sandbox uid could not read."""
    binds = _check_binds(ro_binds)
    if mode == "privileged":
        for host in binds:
            if not readable_by_others(host) and not executable_only(host):
                raise SandboxError(
                    f"ro_binds source {host} is not readable by the sandbox uid {SANDBOX_UID} "
                    "(it needs o+r, and o+x for a directory)"
                )
    return binds


def executable_only(path: str) -> bool:
    """A regular file the sandbox uid may execute and not read (mode ``o+x`` without ``o+r``):
    bound at its point by the privileged setup, it stays execute-only inside (the rebuild
    family's gold program)."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and bool(info.st_mode & stat.S_IXOTH)


def bwrap_mode() -> str:
    """How the bwrap tier runs here: ``"privileged"`` or ``"unprivileged"`` (probed once)."""
    return _bwrap_mode()[0] or "unprivileged"


def check_files(files: Mapping[str, str | bytes], limits: Limits) -> None:
    """Refuse workspace paths that are absolute or leave it, and files larger than the disk."""
    total = 0
    for name, content in files.items():
        parts = PurePosixPath(name).parts
        if not parts or name.startswith("/") or ".." in parts or "\0" in name:
            raise SandboxError(f"workspace path must be relative and inside it: {name!r}")
        total += len(content.encode() if isinstance(content, str) else content)
    if total > limits.disk_mb * 1024 * 1024:
        raise SandboxError(f"files take {total} bytes, more than disk_mb={limits.disk_mb}")


def _check_binds(ro_binds: Mapping[str, str]) -> dict[str, str]:
    for host, dest in ro_binds.items():
        if not os.path.exists(host):
            raise SandboxError(f"ro_binds source does not exist: {host}")
        if not dest.startswith("/") or dest == "/" or ".." in PurePosixPath(dest).parts:
            raise SandboxError(f"ro_binds destination must be an absolute path: {dest!r}")
    return dict(ro_binds)


def _run_bwrap(
    argv: list[str],
    files: Mapping[str, str | bytes],
    limits: Limits,
    env: Mapping[str, str] | None,
    ro_binds: Mapping[str, str],
    *,
    mode: str,
) -> SandboxResult:
    check_binds(ro_binds, mode)
    run_dir = make_run_dir("sb")
    try:
        run_dir.chmod(0o755)
        write_files(run_dir / "in", files)
        plan = Plan(
            privileged=mode == "privileged",
            run_dir=run_dir,
            argv=argv,
            env={},
            limits=limits,
            ro_binds=[(p, p) for p in interpreter_paths()] + list(ro_binds.items()),
            status_fd=-1,
            nproc=limits.max_processes + 1,  # bwrap's init runs as the sandbox uid too
            has_files=bool(files),
        )
        return run_plan(plan, env)
    finally:
        remove_tree(run_dir)


def run_plan(plan: Plan, env: Mapping[str, str] | None) -> SandboxResult:
    """Run a prepared bwrap :class:`Plan` in cgroups of its own, sweep every process it left,
    and return its result. The caller owns (and removes) ``plan.run_dir``.

    Raises:
        SandboxError: bwrap could not start the sandbox.
    """
    limits = plan.limits
    cgroups = RunCgroups.create(
        pids_max=limits.max_processes + 2,  # + bwrap's monitor and init
        memory_bytes=(limits.memory_mb + limits.disk_mb) << 20,  # tmpfs pages count as memory
    )
    try:
        plan.cgroup_join = cgroups.join_script()
        plan.prepare()

        def sweep(streams: dict[str, Stream]) -> None:
            cgroups.kill_all()
            inode = _status(streams["status"]).get("pid-namespace")
            if isinstance(inode, int):
                procs.kill_until_gone(lambda: procs.in_pid_namespace(inode))

        channel_r, channel_w = os.pipe()
        status_r, status_w = os.pipe()
        plan.env = sandbox_env(home="/tmp", channel_fd=channel_w, extra=env)
        plan.status_fd = status_w
        outcome = execute(
            plan.command(), cwd=plan.run_dir, limits=limits, pass_fds=(channel_w, status_w),
            readers={"channel": (channel_r, limits.output_bytes), "status": (status_r, 1 << 16)},
            sweep=sweep, kill_group=False,
        )  # fmt: skip
        if not outcome.timed_out and "exit-code" not in _status(outcome.streams["status"]):
            tail = outcome.streams["stderr"].data[-2000:].decode("utf-8", "replace").strip()
            code = outcome.returncode
            raise SandboxError(f"bwrap failed to start the sandbox (status {code}): {tail}")
        return make_result(BWRAP, outcome)
    finally:
        cgroups.kill_all()
        cgroups.remove()


def _status(status: Stream) -> dict[str, object]:
    """Merge of the JSON documents bwrap wrote to ``--json-status-fd``: ``child-pid`` and the
    namespaces once the sandbox exists, ``exit-code`` only if the command itself ran."""
    text, decoder = status.data.decode("utf-8", "replace"), json.JSONDecoder()
    merged: dict[str, object] = {}
    index = 0
    while True:
        while index < len(text) and text[index].isspace():
            index += 1
        try:
            doc, index = decoder.raw_decode(text, index)
        except ValueError:
            return merged
        if isinstance(doc, dict):
            merged.update(doc)
