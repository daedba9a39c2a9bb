"""The trusted parent's side of one warm worker: start it in the sandbox, talk to it, kill it.

The worker (by default ``worker.py``, with ``checkchild.py``, ``confine.py`` and
``plainvalues.py`` beside it; the warm test runner ships ``pytestworker.py`` too, see
:class:`WorkerConfig`) is started with the same command line as every other sandboxed run
(:class:`truepass.sandbox.bwrap.Plan`: all namespaces unshared, uid 65534, read-only system and
interpreter, private tmpfs, cgroup, rlimits) and lives until the pool closes or it misbehaves. In
the ``rlimits-only`` tier it runs with the fallback's namespaces and rlimits instead, in a private
scratch directory, and says so.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from truepass.errors import SandboxError
from truepass.sandbox import procs, runner
from truepass.sandbox.bwrap import INBOX, Plan, interpreter_paths, rlimit_args, tool
from truepass.sandbox.cgroups import RunCgroups
from truepass.sandbox.execution import HOST_ENV, make_run_dir, remove_tree, write_files
from truepass.sandbox.fallback import namespaces
from truepass.sandbox.models import Limits

_SHIPPED = ("worker.py", "checkchild.py", "confine.py", "plainvalues.py")
SHIPPED = _SHIPPED  # what every worker program needs beside it
_U32 = 4
START_TIMEOUT_S = 60.0


class WorkerDied(SandboxError):
    """The worker process died, hung, or answered something malformed."""


@dataclass(frozen=True)
class WorkerConfig:
    """What a worker process is started with (see :class:`truepass.sandbox.pool.ExecLimits`).

    The fields after ``seccomp`` choose the worker program; their defaults are the function-level
    worker (``worker.py``, standard library only). ``script`` is one of ``shipped``, files of
    this package copied into the sandbox's inbox; ``env`` and ``ro_binds`` (host path, sandbox
    path) come on top of the worker's own; ``file_size_mb`` and ``open_files`` are the worker's
    rlimits, the ceiling of its children's.
    """

    memory_mb: int
    child_limits: dict[str, int]  # memory_mb, file_size_mb, open_files of each check's child
    disk_mb: int
    max_threads: int
    result_bytes: int
    output_bytes: int
    landlock: bool
    seccomp: bool
    script: str = "worker.py"
    shipped: tuple[str, ...] = _SHIPPED
    python_flags: tuple[str, ...] = ("-S", "-s", "-B")
    env: tuple[tuple[str, str], ...] = ()
    ro_binds: tuple[tuple[str, str], ...] = ()
    file_size_mb: int = 16
    open_files: int = 256


@dataclass
class Response:
    """One check's answer from the worker: its events, the raw result frames, the output."""

    events: list[dict[str, Any]]
    results: bytes
    output: bytes
    truncated: bool


Launcher = Callable[[Callable[[], "subprocess.Popen[bytes]"]], "subprocess.Popen[bytes]"]


def _direct(make: Callable[[], subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    return make()


class WorkerProcess:
    """One long-lived sandboxed worker. Not thread-safe: one check at a time.

    ``launch`` runs the ``Popen`` call; the pool passes one that runs it on a thread living as
    long as the pool: bwrap's ``--die-with-parent`` is a parent-death signal, sent when the
    *thread* that started it exits, so a worker started from a short-lived thread would be
    killed with that thread.
    """

    def __init__(self, config: WorkerConfig, launch: Launcher = _direct) -> None:
        self.config = config
        self._launch = launch
        self.tier = runner.sandbox_tier()
        self.hello: dict[str, Any] = {}
        self._proc: subprocess.Popen[bytes] | None = None
        self._cgroups = RunCgroups([], [])
        self._run_dir: Path | None = None
        self._status_r = -1
        self._pidns: int | None = None
        self._start()

    @property
    def description(self) -> str:
        """E.g. ``bwrap+landlock7+seccomp``: the tier and the child's confinement."""
        parts = [self.tier]
        if self.hello.get("landlock"):
            parts.append(f"landlock{self.hello['landlock']}")
        if self.hello.get("seccomp"):
            parts.append("seccomp")
        return "+".join(parts)

    def _start(self) -> None:
        cfg = self.config
        self._run_dir = run_dir = make_run_dir("sb" if self.tier == runner.BWRAP else "fb")
        run_dir.chmod(0o755)
        sources = Path(__file__).parent / "guest"
        write_files(run_dir / "in", {name: (sources / name).read_bytes() for name in cfg.shipped})
        self._cgroups = RunCgroups.create(
            pids_max=cfg.max_threads + 8,
            memory_bytes=(cfg.memory_mb + 256 + cfg.disk_mb) << 20,
        )
        env = {
            "PATH": f"{os.path.dirname(sys.executable)}:/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8", "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1",
            "TRUEPASS_RESULT_BYTES": str(cfg.result_bytes),
            "TRUEPASS_OUTPUT_BYTES": str(cfg.output_bytes),
            "TRUEPASS_LANDLOCK": "1" if cfg.landlock else "0",
            "TRUEPASS_SECCOMP": "1" if cfg.seccomp else "0",
            "TRUEPASS_CHILD_LIMITS": json.dumps(cfg.child_limits),
            **dict(cfg.env),
        }  # fmt: skip
        limits = Limits(
            timeout_s=1, memory_mb=cfg.memory_mb + 256, cpu_s=10_000_000,
            max_processes=cfg.max_threads + 8, file_size_mb=cfg.file_size_mb,
            disk_mb=cfg.disk_mb, open_files=cfg.open_files,
        )  # fmt: skip
        python = [sys.executable, *cfg.python_flags]
        status_w = -1
        if self.tier == runner.BWRAP:
            self._status_r, status_w = os.pipe()
            env.update(HOME="/tmp", TMPDIR="/tmp", TRUEPASS_OWN_PIDNS="1",
                       TRUEPASS_SCRUB="/tmp:/dev/shm:/workspace")  # fmt: skip
            plan = Plan(
                privileged=runner._bwrap_mode()[0] == "privileged", run_dir=run_dir,
                argv=[*python, f"{INBOX}/{cfg.script}"], env=env, limits=limits,
                ro_binds=[(p, p) for p in interpreter_paths()] + list(cfg.ro_binds),
                status_fd=status_w, cgroup_join=self._cgroups.join_script(), nproc=None,
            )  # fmt: skip
            plan.prepare()
            cmd, host_env, pass_fds = plan.command(), HOST_ENV, (status_w,)
        else:
            scratch = run_dir / "tmp"
            scratch.mkdir(mode=0o1777)
            scratch.chmod(0o1777)
            pidns = bool(namespaces())
            env.update(HOME=str(scratch), TMPDIR=str(scratch), TRUEPASS_SCRUB=str(scratch),
                       TRUEPASS_OWN_PIDNS="1" if pidns else "0")  # fmt: skip
            script = self._cgroups.join_script() + 'exec "$@"\n'
            prlimit = [tool("prlimit") or "prlimit", *rlimit_args(limits, None), "--"]
            worker = [*python, str(run_dir / "in" / cfg.script)]
            cmd = ["/bin/sh", "-c", script, "truepass-setup", *namespaces(), *prlimit, *worker]
            host_env, pass_fds = env, ()
        stderr = open(run_dir / "worker.err", "wb")  # noqa: SIM115 - closed right below
        try:
            self._proc = self._launch(
                lambda: subprocess.Popen(
                    cmd, cwd=run_dir, env=dict(host_env), stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, stderr=stderr, pass_fds=pass_fds, bufsize=0,
                    start_new_session=True,
                )
            )  # fmt: skip
        except OSError as exc:
            self.kill()
            raise SandboxError(f"cannot start a pool worker: {exc}") from exc
        finally:
            stderr.close()
            if status_w >= 0:
                os.close(status_w)
        try:
            raw = self._read_frame(time.monotonic() + START_TIMEOUT_S, 1 << 20)
            self.hello = json.loads(raw)
        except (WorkerDied, ValueError) as exc:
            tail = self.stderr_tail()
            self.kill()
            raise SandboxError(f"pool worker failed to start: {exc}; stderr: {tail}") from exc
        self._pidns = _pid_namespace(self._status_r)

    def stderr_tail(self) -> str:
        """The end of what the worker printed to stderr (its own errors only)."""
        if self._run_dir is None:
            return ""
        with contextlib.suppress(OSError):
            data = (self._run_dir / "worker.err").read_bytes()
            return data[-2000:].decode("utf-8", "replace").strip()
        return ""

    def run(self, header: dict[str, Any], payload: bytes, timeout_s: float) -> Response:
        """Send one check and wait for its response; :class:`WorkerDied` on any failure (the
        worker must then be killed: it may be in any state)."""
        try:
            return self._run(header, payload, timeout_s)
        except WorkerDied as exc:
            tail = self.stderr_tail()
            raise WorkerDied(f"{exc}; worker stderr: {tail[-500:]}" if tail else str(exc)) from exc

    def _run(self, header: dict[str, Any], payload: bytes, timeout_s: float) -> Response:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise WorkerDied("worker is not running")
        head = json.dumps({**header, "size": len(payload)}).encode()
        try:
            _write_all(proc.stdin.fileno(), len(head).to_bytes(_U32, "big") + head + payload)
        except OSError as exc:
            raise WorkerDied(f"cannot write to the worker: {exc}") from exc
        cap = self.config.result_bytes + self.config.output_bytes + (64 << 20)
        body = self._read_frame(time.monotonic() + timeout_s, cap)
        if len(body) < _U32:
            raise WorkerDied("response too short")
        size = int.from_bytes(body[:_U32], "big")
        try:
            meta = json.loads(body[_U32 : _U32 + size])
            results, output = int(meta["results"]), int(meta["output"])
            rest = body[_U32 + size :]
            if len(rest) != results + output or not isinstance(meta["events"], list):
                raise ValueError("sizes do not add up")
            return Response(meta["events"], rest[:results], rest[results:], bool(meta["truncated"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise WorkerDied(f"malformed response: {exc}") from exc

    def _read_frame(self, deadline: float, cap: int) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        size = int.from_bytes(_read_exact(fd, _U32, deadline), "big")
        if size > cap:
            raise WorkerDied(f"response of {size} bytes exceeds {cap}")
        return _read_exact(fd, size, deadline)

    def kill(self) -> None:
        """Kill the worker and everything of its sandbox; remove its cgroups and directory."""
        proc = self._proc
        self._cgroups.kill_all()
        if proc is not None:
            with contextlib.suppress(OSError):
                proc.kill()
            for stream in (proc.stdin, proc.stdout):
                with contextlib.suppress(OSError):
                    if stream is not None:
                        stream.close()
            proc.wait()
        if self._pidns is not None:
            inode = self._pidns
            procs.kill_until_gone(lambda: procs.in_pid_namespace(inode))
        self._cgroups.remove()
        if self._status_r >= 0:
            os.close(self._status_r)
            self._status_r = -1
        if self._run_dir is not None:
            remove_tree(self._run_dir)
            self._run_dir = None
        self._proc = None

    def request_exit(self) -> None:
        """Ask the worker to exit (end of file on its stdin) without waiting for it."""
        proc = self._proc
        if proc is not None and proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()

    def close(self, grace_s: float = 2.0) -> None:
        """Ask the worker to exit, give it ``grace_s`` to do so, then make sure it is gone."""
        self.request_exit()
        if self._proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(grace_s)
        self.kill()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exact(fd: int, size: int, deadline: float) -> bytes:
    chunks: list[bytes] = []
    left = size
    while left:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
            raise WorkerDied("worker did not answer in time")
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise WorkerDied("worker closed its pipe (it died)")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _pid_namespace(status_r: int) -> int | None:
    """The sandbox's pid namespace inode from bwrap's ``--json-status-fd`` (already written)."""
    if status_r < 0:
        return None
    data = b""
    while select.select([status_r], [], [], 0)[0]:
        chunk = os.read(status_r, 1 << 16)
        if not chunk:
            break
        data += chunk
    decoder, text, index = json.JSONDecoder(), data.decode("utf-8", "replace"), 0
    while index < len(text):
        if text[index].isspace():
            index += 1
            continue
        try:
            doc, index = decoder.raw_decode(text, index)
        except ValueError:
            break
        if isinstance(doc, dict) and isinstance(doc.get("pid-namespace"), int):
            return int(doc["pid-namespace"])
    return None
