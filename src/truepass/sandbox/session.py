"""A persistent sandboxed session: one workspace that lives across an agent's steps.

The agent loop runs in the trusted truepass process; only the agent's actions run sandboxed.
:class:`SandboxSession` owns a workspace private to the session. Each :meth:`SandboxSession.run`
starts a *fresh* sandbox, confined exactly as :func:`~truepass.sandbox.run_sandboxed` confines a
run (same tier, bwrap command line, uid 65534, no network, read-only system, rlimits, cgroups,
timeout, output caps, and the same sweep: no process of a command survives it), with that
workspace bound read-write as its working directory. The trusted file tools (:meth:`read_file`,
:meth:`write_file`, :meth:`list_files`, :meth:`snapshot`, :meth:`diff`) only run between
commands, when no process of the session is alive, so nothing changes the workspace under them;
they never follow a symlink out of the workspace.

Where the workspace lives:

* tier ``bwrap``: on a tmpfs of ``disk_mb`` mounted by a *holder* process (``cat`` waiting on a
  pipe from this process) in a private mount namespace of its own (and a user namespace, in the
  unprivileged variant). No mount appears on the host; each command enters the holder's
  namespaces before starting bwrap; this process reaches the files through
  ``/proc/<holder>/root``. If truepass dies the pipe closes, the holder exits and the tmpfs goes
  with its namespace. As root the same tmpfs also holds each command's ``/tmp`` and ``/dev/shm``
  (emptied after every command), so all three share ``disk_mb``, as in ``run_sandboxed``.
* tier ``rlimits-only`` as root: the same holder; the command enters its mount namespace, with
  the workspace's path on the host as its working directory.
* tier ``rlimits-only`` otherwise: a plain directory under the system temporary directory. Disk
  use is then NOT capped (only each file's size), like everything else that tier does not contain
  (see :mod:`truepass.sandbox.fallback`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import secrets
import select
import shlex
import stat
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import TracebackType

from pydantic import BaseModel, ConfigDict, Field

from truepass.errors import SandboxError, TruepassError
from truepass.patches.apply import unified_diff
from truepass.sandbox import runner
from truepass.sandbox.bwrap import (
    SANDBOX_UID,
    WORKSPACE,
    Plan,
    interpreter_paths,
    tmpfs_options,
    tool,
)
from truepass.sandbox.execution import HOST_ENV, make_run_dir, remove_tree
from truepass.sandbox.fallback import run_fallback_in
from truepass.sandbox.models import DEFAULT_LIMITS, Limits, SandboxResult

SHELL = "/bin/sh"
HOLDER_START_S = 30.0
MAX_ENTRIES = 100_000  # files and directories a walk of the workspace visits at most
_MAX_SYMLINKS = 40  # as the kernel's own limit on symlinks followed in one lookup
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC  # a FIFO cannot block
_SKIPPED_DIRS = frozenset({"__pycache__"})


class WorkspaceError(TruepassError):
    """A trusted file tool refused a path: absolute, with ``..``, through a symlink that leads out
    of the workspace, not a regular file, or larger than allowed."""


class Observation(BaseModel):
    """What one command of a session did, as the agent loop gets it."""

    model_config = ConfigDict(frozen=True)

    command: str
    exit_code: int | None = Field(
        description="exit status; 128+N when killed by signal N; None when the timeout killed it"
    )
    stdout: str = Field(description="for display: the head and tail, display_chars at most")
    stderr: str = Field(description="for display: the head and tail, display_chars at most")
    stdout_full: str = Field(description="all of stdout, up to limits.output_bytes")
    stderr_full: str = Field(description="all of stderr, up to limits.output_bytes")
    timed_out: bool
    truncated: bool = Field(description="stdout or stderr was shortened for display")
    output_capped: bool = Field(
        description="a stream exceeded limits.output_bytes: the full text is incomplete too"
    )
    duration_s: float
    tier: str = Field(description='"bwrap", or "rlimits-only" (the weaker fallback)')


def clip(text: str, limit: int) -> tuple[str, bool]:
    """``text`` cut to its first and last ``limit // 2`` characters or so, with a marker line
    saying how much was left out; and whether anything was."""
    if len(text) <= limit:
        return text, False
    head = limit // 2
    tail = limit - head
    omitted = len(text) - head - tail
    return (
        f"{text[:head]}\n[... {omitted} characters omitted ...]\n{text[len(text) - tail :]}",
        True,
    )


class _Holder:
    """A process keeping the session's tmpfs mounted at ``rw`` in a private mount namespace
    (``user_ns``: inside a user namespace of its own, for the unprivileged variant).

    It is ``cat`` reading a pipe whose only write end this process holds: it exits when the
    session closes or truepass dies, and the namespace and its tmpfs then vanish. Its working
    directory is ``/``: nothing about it may look like a process of a command (the fallback's
    sweep kills every process whose working directory is under the run directory).
    """

    def __init__(self, rw: Path, limits: Limits, *, user_ns: bool) -> None:
        unshare = tool("unshare")
        if unshare is None or tool("nsenter") is None:
            raise SandboxError("a persistent session needs util-linux's unshare and nsenter")
        q = shlex.quote
        ws = q(str(rw / "ws"))
        script = "set -e\n"
        script += f"mount -t tmpfs -o {tmpfs_options(limits, None if user_ns else SANDBOX_UID)}"
        script += f" truepass-session {q(str(rw))}\nmkdir -m 0755 {ws}\n"
        if not user_ns:
            script += f"chown {SANDBOX_UID}:{SANDBOX_UID} {ws}\n"
        script += "echo ready\nexec cat >/dev/null\n"
        userns = ["--user", "--map-root-user"] if user_ns else []
        cmd = [unshare, *userns, "--mount", "--propagation", "private", "--"]
        cmd += [SHELL, "-c", script, "truepass-holder"]
        try:
            self.proc = subprocess.Popen(
                cmd, cwd="/", env=dict(HOST_ENV), stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
            )  # fmt: skip
        except OSError as exc:
            raise SandboxError(f"cannot start the session's workspace holder: {exc}") from exc
        ready, err = self._wait_ready()
        if not ready:
            self.stop()
            raise SandboxError(f"the session's workspace holder failed: {err}")

    def _wait_ready(self) -> tuple[bool, str]:
        assert self.proc.stdout is not None and self.proc.stderr is not None
        out, deadline = b"", time.monotonic() + HOLDER_START_S
        fd = self.proc.stdout.fileno()
        while b"\n" not in out:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return False, "it did not start in time"
            chunk = os.read(fd, 64)
            if not chunk:
                break
            out += chunk
        if out.strip() != b"ready":
            self.proc.kill()
            tail = self.proc.stderr.read()[-2000:].decode("utf-8", "replace").strip()
            return False, tail or f"it printed {out!r}"
        self.proc.stdout.close()
        self.proc.stderr.close()
        return True, ""

    @property
    def pid(self) -> int:
        """The holder's pid: ``/proc/<pid>/ns/mnt`` is the namespace holding the tmpfs."""
        return self.proc.pid

    def alive(self) -> bool:
        """Whether the holder (and so the workspace) still exists."""
        return self.proc.poll() is None

    def stop(self) -> None:
        """End the holder; its namespace, tmpfs included, goes with it."""
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self.proc.wait()


class SandboxSession:
    """A sandboxed workspace that persists across commands; use it as a context manager.

    Args:
        files: relative path -> content, the workspace's starting tree (what :meth:`diff` is
            computed against).
        limits: per command: time, memory, CPU, processes, file size, output caps; ``disk_mb``
            caps the workspace (with each command's ``/tmp`` and ``/dev/shm`` as root).
        env: extra environment variables of every command; nothing of the caller's gets in.
        ro_binds: host path -> sandbox path, bound read-only into every command (bwrap tier).
        display_chars: how much of stdout and of stderr an :class:`Observation` shows.
        snapshot_bytes: the most text :meth:`snapshot` returns in total.
        read_bytes: the largest file :meth:`read_file` returns.

    Raises:
        SandboxError: the workspace could not be set up (bad paths, no holder).
    """

    def __init__(
        self,
        files: Mapping[str, str | bytes] | None = None,
        *,
        limits: Limits = DEFAULT_LIMITS,
        env: Mapping[str, str] | None = None,
        ro_binds: Mapping[str, str] | None = None,
        display_chars: int = 10_000,
        snapshot_bytes: int = 4 << 20,
        read_bytes: int = 4 << 20,
    ) -> None:
        if min(display_chars, snapshot_bytes, read_bytes) < 1:
            raise ValueError("display_chars, snapshot_bytes and read_bytes must be positive")
        self._closed = False
        self._lock = threading.Lock()
        self._holder: _Holder | None = None
        self._root_fd = -1
        runner.check_files(files or {}, limits)
        files = {
            "/".join(_relative_parts(name)): content for name, content in (files or {}).items()
        }
        self.limits = limits
        self.display_chars = display_chars
        self.snapshot_bytes = snapshot_bytes
        self.read_bytes = read_bytes
        self._env = dict(env or {})
        for text in [*self._env, *self._env.values()]:
            if "\0" in text:
                raise SandboxError(f"NUL byte in env: {text!r}")
        self.tier = runner.sandbox_tier()
        self._mode = runner.bwrap_mode() if self.tier == runner.BWRAP else None
        self._binds = runner.check_binds(ro_binds or {}, self._mode)
        self._initial = {name: t for name, c in files.items() if (t := _as_text(c)) is not None}
        self._run_dir = make_run_dir("sb" if self.tier == runner.BWRAP else "fb")
        try:
            self._set_up()
            for name, content in files.items():
                self._write(name, content.encode() if isinstance(content, str) else content)
        except BaseException:
            self.close()
            raise

    def _set_up(self) -> None:
        self._run_dir.chmod(0o755)
        rw = self._run_dir / "rw"
        rw.mkdir(mode=0o755)
        # _owner: who owns what this process writes (the sandbox uid, for the privileged
        # variant); _scratch: the per-command /tmp (and /dev/shm), paths as commands see them.
        self._owner: int | None = None
        self._scratch: list[Path] = [rw / "tmp"]
        if self.tier == runner.BWRAP:
            privileged = self._mode == "privileged"
            self._holder = _Holder(rw, self.limits, user_ns=not privileged)
            self.workdir = WORKSPACE
            self._owner = SANDBOX_UID if privileged else None
            self._scratch = [rw / "tmp", rw / "shm"] if privileged else []
        elif os.geteuid() == 0 and tool("unshare") and tool("nsenter"):
            self._holder = _Holder(rw, self.limits, user_ns=False)
            self.workdir = str(rw / "ws")
        else:
            (rw / "ws").mkdir(mode=0o755)
            self.workdir = str(rw / "ws")
        self._root_fd = os.open(self._host(rw / "ws"), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)

    def _host(self, path: Path) -> Path:
        """Where this process reaches ``path`` of the commands' view (the holder's namespace)."""
        if self._holder is None:
            return path
        return Path(f"/proc/{self._holder.pid}/root{path}")

    def __enter__(self) -> SandboxSession:
        return self

    def __exit__(
        self,
        _type: type[BaseException] | None,
        _exc: BaseException | None,
        _tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Remove the workspace (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._root_fd >= 0:
                os.close(self._root_fd)
                self._root_fd = -1
            if self._holder is not None:
                self._holder.stop()
            remove_tree(self._run_dir)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise SandboxError("the session is closed")
        if self._holder is not None and not self._holder.alive():
            raise SandboxError("the session's workspace holder died: the workspace is gone")

    # -- commands ---------------------------------------------------------------------------

    def run(self, command: str, timeout_s: float | None = None) -> Observation:
        """Run ``command`` with ``/bin/sh -c`` in a fresh sandbox over the workspace.

        ``timeout_s`` replaces ``limits.timeout_s`` for this command. Whatever the command
        started is killed when it ends; its ``/tmp`` is emptied.

        Raises:
            SandboxError: the sandbox itself failed, or the session is closed.
        """
        if "\0" in command:
            raise SandboxError("NUL byte in command")
        return self._observe(command, self.execute([SHELL, "-c", command], timeout_s=timeout_s))

    def execute(
        self,
        argv: list[str],
        *,
        timeout_s: float | None = None,
        env: Mapping[str, str] | None = None,
        output_bytes: int | None = None,
    ) -> SandboxResult:
        """Run ``argv`` as :meth:`run` runs a command, with ``env`` added to the session's
        environment, and return the whole :class:`SandboxResult` (the result channel
        included: what a harness in the sandbox wrote to ``TRUEPASS_CHANNEL_FD``).
        ``timeout_s`` and ``output_bytes`` replace the session's limits for this command.

        Raises:
            SandboxError: the sandbox itself failed, or the session is closed.
        """
        for text in [*argv, *(env or {}), *(env or {}).values()]:
            if "\0" in text:
                raise SandboxError(f"NUL byte in argv or env: {text!r}")
        limits = self.limits
        changes = {"timeout_s": timeout_s, "output_bytes": output_bytes}
        if any(v is not None for v in changes.values()):
            given = {k: v for k, v in changes.items() if v is not None}
            limits = Limits.model_validate({**limits.model_dump(), **given})
        with self._lock:
            self._check_open()
            self._clear_scratch(recreate=True)
            try:
                return self._run(list(argv), limits, {**self._env, **(env or {})})
            finally:
                self._clear_scratch(recreate=False)

    def _run(self, argv: list[str], limits: Limits, env: dict[str, str]) -> SandboxResult:
        holder = self._holder
        if self.tier == runner.BWRAP:
            assert holder is not None
            plan = Plan(
                privileged=self._mode == "privileged", run_dir=self._run_dir, argv=argv, env={},
                limits=limits,
                ro_binds=[(p, p) for p in interpreter_paths()] + list(self._binds.items()),
                status_fd=-1, nproc=limits.max_processes + 1, has_files=False,
                holder_pid=holder.pid,
            )  # fmt: skip
            return runner.run_plan(plan, env)
        enter: list[str] = []
        cwd = Path(self.workdir)
        if holder is not None:
            # the working directory is set once inside (nsenter's --wd opens it outside)
            enter = [tool("nsenter") or "nsenter", f"--mount=/proc/{holder.pid}/ns/mnt", "--"]
            enter += [SHELL, "-c", 'cd -- "$0" && exec "$@"', self.workdir]
            cwd = self._run_dir
        return run_fallback_in(
            argv, cwd=cwd, private=self._scratch[0], marker=str(self._run_dir), limits=limits,
            env=env, enter=enter,
        )  # fmt: skip

    def _clear_scratch(self, *, recreate: bool) -> None:
        for path in self._scratch:
            host = self._host(path)
            if host.is_symlink() or (host.exists() and not host.is_dir()):
                host.unlink()  # the fallback's command may replace its $HOME: never follow it
            else:
                remove_tree(host)
            if recreate:
                host.mkdir(mode=0o755)
                if self._owner is not None:
                    os.chown(host, self._owner, self._owner)

    def _observe(self, command: str, result: SandboxResult) -> Observation:
        stdout, cut_out = clip(result.stdout, self.display_chars)
        stderr, cut_err = clip(result.stderr, self.display_chars)
        return Observation(
            command=command,
            exit_code=result.returncode,
            stdout=stdout,
            stderr=stderr,
            stdout_full=result.stdout,
            stderr_full=result.stderr,
            timed_out=result.timed_out,
            truncated=cut_out or cut_err,
            output_capped=result.output_truncated,
            duration_s=result.duration_s,
            tier=result.tier,
        )

    # -- trusted file tools -------------------------------------------------------------------

    def read_file(self, path: str) -> str:
        """The text of workspace file ``path`` (undecodable bytes replaced).

        Raises:
            WorkspaceError: ``path`` is absolute, has ``..``, goes through a symlink that leads
                out of the workspace, is not a regular file, or is larger than ``read_bytes``.
            FileNotFoundError: there is no such file.
        """
        with self._lock:
            self._check_open()
            dirs, name = self._resolve(path)
            return self._read(dirs, name, self.read_bytes, path).decode("utf-8", "replace")

    def read_binary(self, path: str, limit: int | None = None) -> bytes:
        """The bytes of workspace file ``path`` (at most ``limit``, default ``disk_mb``); raises
        as :meth:`read_file` does."""
        with self._lock:
            self._check_open()
            dirs, name = self._resolve(path)
            return self._read(dirs, name, limit or self.limits.disk_mb << 20, path)

    def write_file(self, path: str, text: str) -> None:
        """Write ``text`` to workspace file ``path``, creating directories on the way.

        The file is replaced (written beside it, then renamed over it): a hard link to some
        other file is never written through.

        Raises:
            WorkspaceError: as :meth:`read_file`; or ``path`` is a directory or a special file.
            OSError: e.g. ENOSPC when the workspace is full.
        """
        with self._lock:
            self._check_open()
            self._write(path, text.encode())

    def write_bytes(self, path: str, data: bytes) -> None:
        """Write ``data`` to workspace file ``path`` as :meth:`write_file` writes text (mode
        0755 when it starts with ``#!``, else 0644, or the replaced file's).

        Raises:
            WorkspaceError: as :meth:`write_file`.
            OSError: e.g. ENOSPC when the workspace is full.
        """
        with self._lock:
            self._check_open()
            self._write(path, data)

    def list_files(self) -> list[str]:
        """Relative paths of every regular file of the workspace, sorted (symlinks and special
        files are not listed, nor followed)."""
        with self._lock:
            self._check_open()
            return [rel for rel, _ in self._entries()]

    def digests(self) -> dict[str, str]:
        """The SHA-256 of every regular file of the workspace: path -> hex digest (binary files
        included; symlinks are not followed). Read here, in the trusted process."""
        with self._lock:
            self._check_open()
            found: dict[str, str] = {}
            for rel, _ in self._entries():
                *dirs, name = rel.split("/")
                data = self._read(dirs, name, self.limits.disk_mb << 20, rel)
                found[rel] = hashlib.sha256(data).hexdigest()
            return found

    def snapshot(self) -> dict[str, str]:
        """The text files of the workspace now: path -> text, in path order, skipping
        ``__pycache__``, binary files (a NUL byte, or not UTF-8) and, once ``snapshot_bytes`` of
        text are taken, every file that does not fit."""
        with self._lock:
            self._check_open()
            return self._text_files(self.snapshot_bytes)[0]

    def diff(self) -> str:
        """A unified diff (``a/``/``b/``, as a repair answer) of the workspace's text files
        against the starting tree; empty when nothing changed. Binary files and ``__pycache__``
        are left out on both sides; symlinks are not followed.

        Raises:
            WorkspaceError: the workspace holds more than ``disk_mb`` of text (only possible
                where disk use is not capped).
        """
        with self._lock:
            self._check_open()
            after, binary, over = self._text_files(self.limits.disk_mb << 20)
        if over:
            raise WorkspaceError(f"the workspace holds more than {self.limits.disk_mb} MB of text")
        before = {
            name: text
            for name, text in self._initial.items()
            if name not in binary and not _skipped(name)
        }
        return unified_diff(before, after)

    # -- path resolution (the lock is held) ---------------------------------------------------

    def _resolve(self, path: str, *, create_dirs: bool = False) -> tuple[list[str], str]:
        """``path`` as (directories, name) with every symlink on the way resolved, refusing any
        that leads outside the workspace. No component of the directories is a symlink; the
        name is not one either, unless it does not exist."""
        todo = _relative_parts(path)
        done: list[str] = []
        hops = 0
        while todo:
            name = todo.pop(0)
            if name == "..":  # only ever from a symlink's target
                if not done:
                    raise WorkspaceError(f"{path!r} leads outside the workspace")
                done.pop()
                continue
            info = self._lstat(done, name)
            if info is not None and stat.S_ISLNK(info.st_mode):
                hops += 1
                if hops > _MAX_SYMLINKS:
                    raise WorkspaceError(f"{path!r}: too many levels of symbolic links")
                todo = self._link_target(path, done, name) + todo
                continue
            if todo and info is None:
                if not create_dirs:
                    raise FileNotFoundError(errno.ENOENT, "no such directory", path)
                self._mkdir(done, name)
            elif todo and info is not None and not stat.S_ISDIR(info.st_mode):
                raise NotADirectoryError(errno.ENOTDIR, "not a directory", path)
            done.append(name)
        if not done:
            raise WorkspaceError(f"{path!r} names the workspace itself, not a file")
        return done[:-1], done[-1]

    def _link_target(self, path: str, done: list[str], name: str) -> list[str]:
        """The components a symlink stands for, relative to ``done`` (cleared when absolute)."""
        with self._dir(done) as fd:
            target = os.readlink(name, dir_fd=fd)
        if target.startswith("/"):
            inside = target == self.workdir or target.startswith(self.workdir.rstrip("/") + "/")
            if not inside:
                raise WorkspaceError(f"{path!r} leads outside the workspace (to {target!r})")
            done.clear()
            target = target[len(self.workdir) :]
        return [p for p in target.split("/") if p not in ("", ".")]

    def _lstat(self, dirs: list[str], name: str) -> os.stat_result | None:
        with self._dir(dirs) as fd:
            try:
                return os.stat(name, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                return None

    def _mkdir(self, dirs: list[str], name: str) -> None:
        with self._dir(dirs) as fd:
            os.mkdir(name, 0o755, dir_fd=fd)
            if self._owner is not None:
                os.chown(name, self._owner, self._owner, dir_fd=fd, follow_symlinks=False)

    @contextlib.contextmanager
    def _dir(self, parts: list[str]) -> Iterator[int]:
        """An fd of workspace directory ``parts``, opened one component at a time, never
        through a symlink."""
        fd = os.open(".", _DIR_FLAGS, dir_fd=self._root_fd)
        try:
            for part in parts:
                inner = os.open(part, _DIR_FLAGS, dir_fd=fd)
                os.close(fd)
                fd = inner
            yield fd
        finally:
            os.close(fd)

    def _read(self, dirs: list[str], name: str, limit: int, shown: str) -> bytes:
        with self._dir(dirs) as dir_fd:
            fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise WorkspaceError(f"{shown!r} is not a regular file")
            if info.st_size > limit:
                raise WorkspaceError(f"{shown!r} has {info.st_size} bytes, more than {limit}")
            chunks, size = [], 0
            while size <= limit and (chunk := os.read(fd, 1 << 16)):
                chunks.append(chunk)
                size += len(chunk)
            if size > limit:
                raise WorkspaceError(f"{shown!r} has more than {limit} bytes")
            return b"".join(chunks)
        finally:
            os.close(fd)

    def _write(self, path: str, data: bytes) -> None:
        dirs, name = self._resolve(path, create_dirs=True)
        with self._dir(dirs) as dir_fd:
            try:
                old = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            except FileNotFoundError:
                old = None
            if old is not None and not stat.S_ISREG(old.st_mode):
                raise WorkspaceError(f"{path!r} exists and is not a regular file")
            mode = 0o755 if data.startswith(b"#!") else 0o644
            if old is not None:
                mode = stat.S_IMODE(old.st_mode) & 0o777
            temp = f".truepass-write-{secrets.token_hex(8)}"
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(temp, flags, 0o600, dir_fd=dir_fd)
            try:
                try:
                    view = memoryview(data)
                    while view:
                        view = view[os.write(fd, view) :]
                    os.fchmod(fd, mode)
                    if self._owner is not None:
                        os.fchown(fd, self._owner, self._owner)
                finally:
                    os.close(fd)
                os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temp, dir_fd=dir_fd)
                raise

    def _entries(self) -> list[tuple[str, int]]:
        """(relative path, size) of every regular file, sorted; symlinks are not followed."""
        found: list[tuple[str, int]] = []
        pending: list[list[str]] = [[]]
        seen = 0
        while pending:
            parts = pending.pop()
            with self._dir(parts) as fd, os.scandir(fd) as entries:
                for entry in entries:
                    seen += 1
                    if seen > MAX_ENTRIES:
                        raise WorkspaceError(f"the workspace has more than {MAX_ENTRIES} entries")
                    info = entry.stat(follow_symlinks=False)
                    if stat.S_ISDIR(info.st_mode):
                        pending.append([*parts, entry.name])
                    elif stat.S_ISREG(info.st_mode):
                        found.append(("/".join([*parts, entry.name]), info.st_size))
        return sorted(found)

    def _text_files(self, budget: int) -> tuple[dict[str, str], set[str], bool]:
        """(path -> text of the text files within ``budget`` bytes, the binary files, whether
        some text file did not fit)."""
        texts: dict[str, str] = {}
        binary: set[str] = set()
        total, over = 0, False
        for rel, size in self._entries():
            if _skipped(rel):
                continue
            if total + size > budget:
                over = True
                continue
            *dirs, name = rel.split("/")
            try:
                data = self._read(dirs, name, budget - total, rel)
            except WorkspaceError:
                over = True
                continue
            text = _as_text(data)
            if text is None:
                binary.add(rel)
                continue
            texts[rel] = text
            total += len(data)
        return texts, binary, over


def _relative_parts(path: str) -> list[str]:
    """The components of a workspace path given to a file tool; refuses absolute paths, ``..``
    and NUL bytes."""
    if not path or "\0" in path:
        raise WorkspaceError(f"not a workspace path: {path!r}")
    if path.startswith("/"):
        raise WorkspaceError(f"absolute paths are refused: {path!r}")
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise WorkspaceError(f"'..' is refused: {path!r}")
    if not parts:
        raise WorkspaceError(f"not a file path: {path!r}")
    return parts


def _skipped(rel: str) -> bool:
    return any(part in _SKIPPED_DIRS for part in rel.split("/")[:-1])


def _as_text(content: str | bytes) -> str | None:
    """``content`` as text, or None when it is binary (a NUL byte, or not UTF-8)."""
    if isinstance(content, str):
        return None if "\0" in content else content
    if b"\0" in content:
        return None
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        return None


__all__ = ["Observation", "SandboxSession", "WorkspaceError", "clip"]
