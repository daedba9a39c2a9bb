"""The command line of the bubblewrap tier.

Two variants, picked by what the host allows:

* ``privileged`` (we are root; the machines this project runs on): a host-side shell, in a
  private mount namespace of its own (``unshare --mount``), joins the run's cgroups, mounts ONE
  tmpfs of ``disk_mb`` that holds the workspace, ``/tmp`` and ``/dev/shm`` (so their total is
  capped), stages each read-only source that uid 65534 cannot reach (e.g. under ``/root``) with
  ``mount --rbind`` under the run directory, then drops to uid/gid 65534 with ``setpriv``
  before starting bwrap. The candidate is therefore a real unprivileged uid on the host: it cannot
  read root-only files (``/etc/shadow``) and RLIMIT_NPROC applies to it. The private mount
  namespace vanishes with its last process, so no mount can leak onto the host.
* ``unprivileged`` (not root): plain bwrap with ``--size``-limited tmpfs mounts (each of
  ``disk_mb``: the total is not capped here) and direct read-only binds.

A persistent session (:mod:`truepass.sandbox.session`) keeps its workspace on a tmpfs that a
long-lived *holder* process mounted in a private mount namespace (with a user namespace of its
own when unprivileged): the plan then enters the holder's namespaces first (``nsenter``) and
binds that tmpfs's ``ws/`` as ``/workspace`` instead of creating a fresh one.

In both, bwrap unshares every namespace (no network at all), drops all capabilities, forbids new
user namespaces, covers truepass's own package (bundled suites: hidden tests and reference fixes)
with an empty tmpfs wherever a bind would show it, remounts ``/`` read-only and starts a prelude
that copies the run's files into ``/workspace`` and applies the rlimits with ``prlimit`` before
exec'ing the untrusted argv.
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path

from truepass.sandbox.models import Limits

SANDBOX_UID = 65534
WORKSPACE = "/workspace"
INBOX = "/.truepass/in"
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
_PRELUDE = f'cp -R {INBOX}/. {WORKSPACE}/ && exec "$@"'
PRIVILEGED_TOOLS = ("unshare", "mount", "setpriv")


def tool(name: str) -> str | None:
    """Absolute path of a host tool, looked up in the usual system directories."""
    return shutil.which(name, path="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")


def privileged_possible() -> bool:
    """Whether the privileged variant can even be tried here (root and the tools it needs)."""
    return os.geteuid() == 0 and all(tool(t) for t in PRIVILEGED_TOOLS)


def rlimit_args(limits: Limits, nproc: int | None) -> list[str]:
    """``prlimit`` options that set soft and hard limits (a process cannot raise them back)."""
    mib = 1024 * 1024
    args = [f"--as={limits.memory_mb * mib}"] if limits.address_space else []
    args += [
        f"--cpu={limits.cpu_s}",
        f"--fsize={limits.file_size_mb * mib}",
        f"--nofile={limits.open_files}",
        "--core=0",
    ]
    if nproc is not None:
        args.append(f"--nproc={nproc}")
    return args


def tmpfs_options(limits: Limits, owner: int | None = SANDBOX_UID) -> str:
    """``mount -o`` options of a run's writable tmpfs: ``disk_mb`` of space, inodes to match."""
    size = limits.disk_mb * 1024 * 1024
    inodes = max(limits.disk_mb * 256, 16384)
    opts = f"size={size},nr_inodes={inodes},mode=0755"
    if owner is not None:
        opts += f",uid={owner},gid={owner}"
    return opts + ",nosuid,nodev"


def interpreter_paths() -> list[str]:
    """Host directories the calling interpreter needs (venv and base prefix), outermost only."""
    wanted = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    real = Path(os.path.realpath(sys.executable))
    if real.parent.name == "bin":
        wanted.add(str(real.parent.parent))
    paths = sorted(p for p in wanted if p and p != "/" and not _under(p, _SYSTEM_DIRS))
    return [p for p in paths if not _under(p, [q for q in paths if q != p])]


def own_package_dirs() -> list[str]:
    """truepass's own package directory, as imported and resolved: its bundled suites hold
    hidden tests and reference fixes, so no run may see it (what runs inside is shipped)."""
    here = Path(__file__).parent.parent
    return sorted({str(here.absolute()), os.path.realpath(here)})


def hidden_in(bound: list[str]) -> list[str]:
    """The directories of :func:`own_package_dirs` that lie under a bound directory (a wheel in
    the venv's ``site-packages``, a system-wide install under ``/usr``): each is covered by an
    empty read-only tmpfs. An editable install's sources are not bound at all."""
    return [p for p in own_package_dirs() if _under(p, bound)]


def readable_by_others(path: str) -> bool:
    """Whether any uid may read ``path`` itself (o+r, and o+x for a directory)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    wanted = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
    return mode & wanted == wanted


def _world_readable(path: str) -> bool:
    """Whether any uid can reach and read ``path`` (every ancestor searchable)."""
    try:
        searchable = all(os.stat(p).st_mode & stat.S_IXOTH for p in Path(path).parents)
    except OSError:
        return False
    return searchable and readable_by_others(path)


def _under(path: str, roots: tuple[str, ...] | list[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


@dataclass
class Plan:
    """Everything one bwrap run needs; :meth:`command` turns it into an argv for Popen."""

    privileged: bool
    run_dir: Path  # host directory of this run (mode 0755), holds in/, rw/, m/
    argv: list[str]
    env: dict[str, str]
    limits: Limits
    ro_binds: list[tuple[str, str]]  # host path -> sandbox path (interpreter paths first)
    status_fd: int
    cgroup_join: str = ""
    nproc: int | None = None
    has_files: bool = True
    # A session's holder process: enter its namespaces first; run_dir/rw there is its tmpfs
    # (privileged: ws/, tmp/ and shm/ made by the session; unprivileged: ws/ only).
    holder_pid: int | None = None
    _staged: list[tuple[str, str]] = field(default_factory=list)

    def prepare(self) -> None:
        """Create the host-side directories: the inbox, the tmpfs mountpoint, staging points."""
        (self.run_dir / "rw").mkdir(exist_ok=True)
        (self.run_dir / "m").mkdir(exist_ok=True)
        self._staged = []
        for index, (host, dest) in enumerate(self.ro_binds):
            if not self.privileged or _world_readable(host):
                self._staged.append((host, dest))
                continue
            point = self.run_dir / "m" / str(index)
            if os.path.isdir(host):
                point.mkdir(exist_ok=True)
            else:
                point.touch()
            self._staged.append((str(point), dest))

    def command(self) -> list[str]:
        """The full host command: setup shell, (setpriv,) bwrap, prelude, prlimit, argv."""
        bwrap = [tool("bwrap") or "bwrap", *self._namespaces(), *self._mounts(), *self._env()]
        bwrap += ["--json-status-fd", str(self.status_fd), "--"]
        if self.has_files:
            bwrap += ["/bin/sh", "-c", _PRELUDE, "truepass-prelude"]
        bwrap += ["/usr/bin/prlimit", *rlimit_args(self.limits, self.nproc), "--", *self.argv]
        script = "set -e\necho 1000 > /proc/self/oom_score_adj 2>/dev/null || true\n"
        script += self.cgroup_join
        if self.holder_pid is not None:
            return self._command_in_holder(script, bwrap)
        head: list[str] = []
        if self.privileged:
            head = [tool("unshare") or "unshare", "--mount", "--propagation", "private", "--"]
            script += self._privileged_setup()
            ids = f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_UID}", "--clear-groups"
            bwrap = [tool("setpriv") or "setpriv", *ids, "--", *bwrap]
        script += 'exec "$@"\n'
        return [*head, "/bin/sh", "-c", script, "truepass-setup", *bwrap]

    def _command_in_holder(self, script: str, bwrap: list[str]) -> list[str]:
        """Join the cgroups on the host, enter the holder's namespaces, then (privileged) a
        mount namespace of this command's own for the staging mounts, which vanish with it."""
        pid = self.holder_pid
        enter = [tool("nsenter") or "nsenter", f"--mount=/proc/{pid}/ns/mnt", "--"]
        if not self.privileged:
            enter[1:1] = ["--preserve-credentials", f"--user=/proc/{pid}/ns/user"]
            return ["/bin/sh", "-c", script + 'exec "$@"\n', "truepass-setup", *enter, *bwrap]
        own = [tool("unshare") or "unshare", "--mount", "--propagation", "private", "--"]
        stage = "set -e\n" + self._staging_setup() + 'exec "$@"\n'
        ids = f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_UID}", "--clear-groups"
        bwrap = [tool("setpriv") or "setpriv", *ids, "--", *bwrap]
        return [
            "/bin/sh", "-c", script + 'exec "$@"\n', "truepass-setup", *enter, *own,
            "/bin/sh", "-c", stage, "truepass-stage", *bwrap,
        ]  # fmt: skip

    def _privileged_setup(self) -> str:
        rw = self.run_dir / "rw"
        q = shlex.quote
        lines = [
            f"mount -t tmpfs -o {tmpfs_options(self.limits)} truepass-rw {q(str(rw))}",
            f"install -d -o {SANDBOX_UID} -g {SANDBOX_UID} -m 0755 "
            + " ".join(q(str(rw / d)) for d in ("ws", "tmp", "shm")),
        ]
        return "".join(line + "\n" for line in lines) + self._staging_setup()

    def _staging_setup(self) -> str:
        """Shell lines that bind each read-only source uid 65534 cannot reach at its point."""
        q = shlex.quote
        lines = []
        for (host, _), (point, _) in zip(self.ro_binds, self._staged, strict=True):
            if point != host:
                lines.append(f"mount --rbind {q(host)} {q(point)}\n")
        return "".join(lines)

    def _namespaces(self) -> list[str]:
        uid = str(SANDBOX_UID)
        return [
            "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
            "--new-session", "--cap-drop", "ALL", "--uid", uid, "--gid", uid,
            "--hostname", "sandbox",
        ]  # fmt: skip

    def _mounts(self) -> list[str]:
        args: list[str] = []
        for path in _SYSTEM_DIRS:
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                args += ["--ro-bind", path, path]
        args += ["--proc", "/proc", "--dev", "/dev"]
        home = os.path.realpath(os.path.expanduser("~"))
        shown = (*_SYSTEM_DIRS, "/tmp", "/proc", "/dev", WORKSPACE)  # mounted over anyway
        hide_home = os.path.isdir(home) and home != "/" and not _under(home, shown)
        if hide_home:
            args += ["--tmpfs", home]
        rw = self.run_dir / "rw"
        if self.privileged:
            args += ["--bind", str(rw / "ws"), WORKSPACE, "--bind", str(rw / "tmp"), "/tmp"]
            args += ["--bind", str(rw / "shm"), "/dev/shm"]
        else:
            size = str(self.limits.disk_mb * 1024 * 1024)
            fresh: tuple[str, ...] = (WORKSPACE, "/tmp", "/dev/shm")
            if self.holder_pid is not None:  # the session's persistent workspace
                args += ["--bind", str(rw / "ws"), WORKSPACE]
                fresh = ("/tmp", "/dev/shm")
            for dest in fresh:
                args += ["--perms", "1777" if dest != WORKSPACE else "0755"]
                args += ["--size", size, "--tmpfs", dest]
        if self.has_files:
            args += ["--ro-bind", str(self.run_dir / "in"), INBOX]
        for source, dest in self._staged:
            args += ["--ro-bind", source, dest]
        for path in hidden_in([*_SYSTEM_DIRS, *(dest for _, dest in self._staged)]):
            args += ["--perms", "0555", "--tmpfs", path, "--remount-ro", path]
        args += ["--remount-ro", "/dev"]
        if hide_home:
            args += ["--remount-ro", home]
        return [*args, "--remount-ro", "/", "--chdir", WORKSPACE]

    def _env(self) -> list[str]:
        args = ["--clearenv"]
        for key, value in self.env.items():
            args += ["--setenv", key, value]
        return args
