"""A cgroup per sandboxed run: caps processes (``pids``) and memory, and finds every process of
the run so that none survives it.

cgroup v1 hierarchies (``/sys/fs/cgroup/pids``, ``/sys/fs/cgroup/memory``) and v2 (unified, when
the controller is enabled for children of our own cgroup) are supported. The run's group is
created inside the caller's own group, so the caller's limits still apply on top. When no group
can be created (not root, no delegation) :meth:`RunCgroups.create` returns an empty set and the
run relies on its other mechanisms (pid namespace, RLIMIT_NPROC for a non-root uid).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import re
import secrets
import shlex
import signal
import time
from pathlib import Path

from truepass.sandbox.execution import alive

log = logging.getLogger(__name__)

_CONTROLLERS = ("pids", "memory")
_STALE = re.compile(r"truepass-(\d+)-[0-9a-f]+")


@functools.cache
def _hierarchies() -> dict[str, tuple[Path, bool]]:
    """Controller -> (our own cgroup's directory in its hierarchy, is cgroup v2)."""
    own: dict[str, str] = {}
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, ctrls, path = line.split(":", 2)
            for ctrl in ctrls.split(",") if ctrls else [""]:
                own[ctrl] = path
        mountinfo = Path("/proc/self/mountinfo").read_text().splitlines()
    except (OSError, ValueError):
        return {}
    found: dict[str, tuple[Path, bool]] = {}
    v2_dirs: list[Path] = []
    for line in mountinfo:
        fields = line.split()
        if "-" not in fields:
            continue
        sep = fields.index("-")
        root, mount, fstype = fields[3], fields[4], fields[sep + 1]
        opts = fields[sep + 3].split(",") if len(fields) > sep + 3 else []
        keys = [c for c in _CONTROLLERS if c in opts] if fstype == "cgroup" else []
        if fstype == "cgroup2":
            keys = [""]
        for key in keys:
            own_path = own.get(key)
            if own_path is None or not own_path.startswith(root):
                continue
            rel = own_path[len(root) :] if root != "/" else own_path
            directory = Path(mount) / rel.lstrip("/")
            if key:
                found[key] = (directory, False)
            else:
                v2_dirs.append(directory)
    for directory in v2_dirs:
        try:
            enabled = (directory / "cgroup.subtree_control").read_text().split()
        except OSError:
            continue
        for ctrl in _CONTROLLERS:
            if ctrl in enabled and ctrl not in found:
                found[ctrl] = (directory, True)
    return found


def _sweep_stale(parent: Path) -> None:
    """Clear groups left by truepass processes that died without cleaning up (e.g. SIGKILLed
    mid-run): whatever still runs in them is killed, then the group is removed."""
    with contextlib.suppress(OSError):
        for entry in parent.iterdir():
            match = _STALE.fullmatch(entry.name)
            if match is None or alive(int(match.group(1))):
                continue
            stale = RunCgroups([entry], [False])
            if stale.pids():
                stale.kill_all(timeout_s=1.0)
            stale.remove(timeout_s=1.0)


class RunCgroups:
    """The cgroups of one run (possibly none). Use :meth:`create`, then :meth:`remove`."""

    def __init__(self, dirs: list[Path], v2: list[bool]) -> None:
        self.dirs = dirs
        self._v2 = v2

    @classmethod
    def create(cls, *, pids_max: int, memory_bytes: int) -> RunCgroups:
        """Create this run's groups with their limits; never raises (empty when unavailable)."""
        name = f"truepass-{os.getpid()}-{secrets.token_hex(4)}"
        made = cls([], [])
        for ctrl, (parent, is_v2) in _hierarchies().items():
            path = parent / name
            if ctrl == "pids":
                key, value = "pids.max", str(pids_max)
            else:
                key, value = ("memory.max" if is_v2 else "memory.limit_in_bytes"), str(memory_bytes)
            fresh = path not in made.dirs  # v2: one group carries both controllers
            try:
                if fresh:
                    _sweep_stale(parent)
                    path.mkdir()
                (path / key).write_text(value)
            except OSError as exc:
                log.debug("cgroup %s unavailable: %s", path, exc)
                if fresh:
                    with contextlib.suppress(OSError):
                        path.rmdir()
                continue
            if fresh:
                made.dirs.append(path)
                made._v2.append(is_v2)
        return made

    @property
    def active(self) -> bool:
        """Whether any group exists (processes will be capped and tracked by it)."""
        return bool(self.dirs)

    def join_script(self) -> str:
        """Shell lines that move the current shell (``$$``) into every group of the run."""
        return "".join(f"echo $$ > {shlex.quote(str(d / 'cgroup.procs'))}\n" for d in self.dirs)

    def pids(self) -> set[int]:
        """Every process currently in any of the run's groups."""
        found: set[int] = set()
        for directory in self.dirs:
            with contextlib.suppress(OSError, ValueError):
                found.update(int(p) for p in (directory / "cgroup.procs").read_text().split())
        return found

    def kill_all(self, timeout_s: float = 5.0) -> bool:
        """SIGKILL every process of the run until none is left; True once the groups are empty."""
        for directory, is_v2 in zip(self.dirs, self._v2, strict=True):
            if is_v2:
                with contextlib.suppress(OSError):
                    (directory / "cgroup.kill").write_text("1")
        end = time.monotonic() + timeout_s
        while True:
            pids = self.pids()
            if not pids:
                return True
            if time.monotonic() > end:
                log.warning("sandbox processes survive SIGKILL: %s", sorted(pids))
                return False
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)

    def remove(self, timeout_s: float = 5.0) -> None:
        """Delete the groups (retrying while exiting processes still hold them)."""
        end = time.monotonic() + timeout_s
        for directory in self.dirs:
            while True:
                try:
                    directory.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError as exc:
                    if time.monotonic() > end:
                        log.warning("cannot remove cgroup %s: %s", directory, exc)
                        break
                    time.sleep(0.01)
        self.dirs, self._v2 = [], []
