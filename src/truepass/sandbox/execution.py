"""What both tiers share: the sandbox environment, laying out files, starting a process and
reading its capped output until it ends or the timeout kills it, and building the result."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from truepass.errors import SandboxError
from truepass.sandbox.capture import Stream, drain
from truepass.sandbox.guest.confine import ExitWatch
from truepass.sandbox.models import Limits, SandboxResult

HOST_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C"}


def sandbox_env(*, home: str, channel_fd: int, extra: Mapping[str, str] | None) -> dict[str, str]:
    """The whole environment of a sandboxed process (nothing is inherited)."""
    bindir = os.path.dirname(sys.executable)
    env = {
        "PATH": f"{bindir}:/usr/local/bin:/usr/bin:/bin",
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "PYTHONHASHSEED": "0",
    }
    env.update(extra or {})
    env["TRUEPASS_CHANNEL_FD"] = str(channel_fd)
    return env


def write_files(root: Path, files: Mapping[str, str | bytes]) -> None:
    """Lay ``files`` out under ``root``, world-readable (the sandbox uid copies them in)."""
    root.mkdir(mode=0o755, exist_ok=True)
    root.chmod(0o755)
    for name, content in files.items():
        path = root / name
        for parent in reversed(path.relative_to(root).parents[:-1]):
            (root / parent).mkdir(mode=0o755, exist_ok=True)
            (root / parent).chmod(0o755)
        data = content.encode() if isinstance(content, str) else content
        path.write_bytes(data)
        path.chmod(0o755 if data.startswith(b"#!") else 0o644)


@dataclass
class Outcome:
    """How a process run ended and what it wrote."""

    returncode: int | None  # None when the timeout killed it
    timed_out: bool
    streams: dict[str, Stream]
    duration_s: float


def execute(
    cmd: list[str],
    *,
    cwd: Path,
    limits: Limits,
    pass_fds: tuple[int, ...],
    readers: dict[str, tuple[int, int]],
    sweep: Callable[[dict[str, Stream]], None],
    kill_group: bool,
    env: Mapping[str, str] = HOST_ENV,
    preexec_fn: Callable[[], None] | None = None,
) -> Outcome:
    """Start ``cmd`` and read its output under the caps until it ends or the timeout kills it.

    Takes ownership of every fd given: ``pass_fds`` (write ends inherited by the child) are
    closed once it has started; ``readers`` (name -> (read end, cap)) are read along with stdout
    and stderr and closed before returning. On timeout the process (``kill_group``: its whole
    process group) gets SIGKILL; ``sweep`` then kills whatever else of the run is left.
    """
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    fds = {"stdout": (out_r, limits.output_bytes), "stderr": (err_r, limits.output_bytes)}
    streams = {name: Stream(fd, cap) for name, (fd, cap) in {**fds, **readers}.items()}
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            cmd, cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL, stdout=out_w, stderr=err_w,
            pass_fds=pass_fds, close_fds=True, start_new_session=True, preexec_fn=preexec_fn,
        )  # fmt: skip
    except BaseException as exc:
        for stream in streams.values():
            stream.close()
        if isinstance(exc, OSError | ValueError):
            raise SandboxError(f"cannot start {cmd[0]}: {exc}") from exc
        raise
    finally:
        for fd in (out_w, err_w, *pass_fds):
            os.close(fd)
    deadline = start + limits.timeout_s
    watch = ExitWatch(proc.pid)
    timed_out = False
    try:
        drain(list(streams.values()), deadline=deadline, exited=lambda: watch.exited(0.0))
        timed_out = not watch.exited(max(0.0, deadline - time.monotonic()))
    finally:
        # The child is not reaped yet, so neither its pid nor its process group id can have
        # been reused: signalling them cannot hit an unrelated process.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if kill_group:
                os.killpg(proc.pid, signal.SIGKILL)
            elif not watch.exited(0.0):
                os.kill(proc.pid, signal.SIGKILL)
        watch.close()
        proc.wait()
        duration = time.monotonic() - start
        try:
            sweep(streams)
        finally:
            drain(list(streams.values()), deadline=time.monotonic() + 2.0, exited=lambda: True)
            for stream in streams.values():
                stream.close()
    return Outcome(None if timed_out else proc.returncode, timed_out, streams, duration)


def make_result(tier: str, outcome: Outcome) -> SandboxResult:
    """The public result; a death by signal N is reported as 128+N, as a shell (and bwrap) do."""
    code = outcome.returncode
    if code is not None and code < 0:
        code = 128 - code
    streams = outcome.streams
    return SandboxResult(
        tier=tier,
        returncode=code,
        stdout=streams["stdout"].data.decode("utf-8", errors="replace"),
        stderr=streams["stderr"].data.decode("utf-8", errors="replace"),
        channel=bytes(streams["channel"].data),
        timed_out=outcome.timed_out,
        output_truncated=any(streams[n].truncated for n in ("stdout", "stderr", "channel")),
        duration_s=round(outcome.duration_s, 4),
    )


def make_run_dir(kind: str) -> Path:
    """A fresh host directory for one run, named after this process so that directories left by
    a process that died mid-run (SIGKILL, power loss) are recognised and removed later."""
    parent = Path(tempfile.gettempdir())
    with contextlib.suppress(OSError):
        for entry in parent.iterdir():
            match = _RUN_DIR.fullmatch(entry.name)
            if match and match.group(1) == kind and not alive(int(match.group(2))):
                remove_tree(entry)
    return Path(tempfile.mkdtemp(prefix=f"truepass-{kind}-{os.getpid()}-", dir=parent))


_RUN_DIR = re.compile(r"truepass-(sb|fb)-(\d+)-\w+")


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one of another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_tree(path: Path) -> None:
    """Delete a run directory even if the candidate made parts of it unwritable.

    Permissions are only ever changed inside ``path``: its parent (``/tmp``) is never touched.
    """
    root = os.path.abspath(path)

    def fix(func: Callable[[str], object], name: str, _exc: object) -> None:
        parent = os.path.dirname(os.path.abspath(name))
        with contextlib.suppress(OSError):
            if parent == root or parent.startswith(root + os.sep):
                os.chmod(parent, 0o700)
            os.chmod(name, 0o700)
        with contextlib.suppress(OSError):
            func(name)

    shutil.rmtree(path, onerror=fix)
