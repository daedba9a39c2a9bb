"""Finding and killing a run's leftover processes by scanning ``/proc``.

These sweeps complement the cgroup (which may be unavailable): every process of a bwrap run lives
in the run's pid namespace; a fallback run's processes carry the run's private directory in their
environment (``HOME``/``TMPDIR``) or their working directory.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def in_pid_namespace(ns_inode: int) -> set[int]:
    """Host pids of every live (not zombie) process in the pid namespace with this inode.

    bwrap's init may linger as a zombie until the host's init reaps it: it is dead already.
    """
    want = f"pid:[{ns_inode}]"
    found: set[int] = set()
    for pid in _pids():
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/{pid}/ns/pid") == want and not _zombie(pid):
                found.add(pid)
    return found


def _zombie(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rindex(")") + 2 :].startswith(("Z", "X"))


def carrying(marker: str) -> set[int]:
    """Processes whose environment or working directory mentions ``marker`` (a unique path)."""
    token = marker.encode()
    me = os.getpid()
    found: set[int] = set()
    for pid in _pids():
        if pid == me:
            continue
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/{pid}/cwd").startswith(marker):
                found.add(pid)
                continue
        with contextlib.suppress(OSError):
            if token in Path(f"/proc/{pid}/environ").read_bytes():
                found.add(pid)
    return found


def kill_until_gone(find: Callable[[], set[int]], timeout_s: float = 5.0) -> set[int]:
    """SIGKILL whatever ``find()`` returns until it returns nothing; the survivors, if any."""
    end = time.monotonic() + timeout_s
    while True:
        pids = find()
        if not pids or time.monotonic() > end:
            return pids
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)


def tasks_of_uid(uid: int) -> int:
    """Threads currently owned by ``uid`` (what RLIMIT_NPROC counts)."""
    total = 0
    for pid in _pids():
        with contextlib.suppress(OSError):
            if os.stat(f"/proc/{pid}").st_uid == uid:
                total += len(os.listdir(f"/proc/{pid}/task"))
    return total
